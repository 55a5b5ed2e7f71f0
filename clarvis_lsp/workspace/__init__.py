"""Per-workspace state: the engine that holds one workspace's configuration, discovery, open buffers and
findings, and keeps them current as files change."""

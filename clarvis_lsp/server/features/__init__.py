"""LSP features, one module per method or method family; ``clarvis_lsp.server.methods`` registers them."""

//! Starts `clarvis-lsp` for Zed: the `lsp.clarvis-lsp.binary` setting if given, else `clarvis-lsp` from the
//! worktree's PATH. `initialization_options` and `settings` from `lsp.clarvis-lsp` are passed on unchanged.

use zed_extension_api::{self as zed, serde_json, settings::LspSettings, LanguageServerId, Result};

struct ClarvisExtension;

impl zed::Extension for ClarvisExtension {
    fn new() -> Self {
        ClarvisExtension
    }

    fn language_server_command(
        &mut self,
        language_server_id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<zed::Command> {
        let binary = LspSettings::for_worktree(language_server_id.as_ref(), worktree)
            .ok()
            .and_then(|settings| settings.binary);
        let args = binary
            .as_ref()
            .and_then(|binary| binary.arguments.clone())
            .unwrap_or_else(|| vec!["--stdio".to_string()]);
        let command = match binary.and_then(|binary| binary.path) {
            Some(path) => path,
            None => worktree.which("clarvis-lsp").ok_or_else(|| {
                "clarvis-lsp is not on PATH: `pip install clarvis-lsp`, or set lsp.clarvis-lsp.binary.path"
                    .to_string()
            })?,
        };
        Ok(zed::Command {
            command,
            args,
            env: worktree.shell_env(),
        })
    }

    fn language_server_initialization_options(
        &mut self,
        language_server_id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<Option<serde_json::Value>> {
        Ok(LspSettings::for_worktree(language_server_id.as_ref(), worktree)
            .ok()
            .and_then(|settings| settings.initialization_options))
    }

    fn language_server_workspace_configuration(
        &mut self,
        language_server_id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<Option<serde_json::Value>> {
        Ok(LspSettings::for_worktree(language_server_id.as_ref(), worktree)
            .ok()
            .and_then(|settings| settings.settings))
    }
}

zed::register_extension!(ClarvisExtension);

import { format, FormattingOptions } from 'jsonc-parser';
import * as vscode from 'vscode';

/**
 * Format Document and Format Selection for the Clarvis JSON files. They have a language of their own
 * (`clarvis-json`) so that VS Code's JSON language server, and the schemas other extensions attach to any
 * `settings.json` or `plugin.json`, leave them to clarvis-lsp; this keeps the one thing that server did for them
 * that clarvis-lsp does not: formatting, with jsonc-parser, the library VS Code's JSON formatter is built on.
 */
export function registerJsonFormatting(): vscode.Disposable {
  const selector: vscode.DocumentSelector = { language: 'clarvis-json' };
  const edits = (document: vscode.TextDocument, range: vscode.Range | undefined, options: vscode.FormattingOptions) => {
    const settings: FormattingOptions = {
      tabSize: options.tabSize,
      insertSpaces: options.insertSpaces,
      eol: document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n',
      insertFinalNewline: options.insertFinalNewline === true,
    };
    const text = document.getText();
    const offsets = range && { offset: document.offsetAt(range.start), length: document.offsetAt(range.end) - document.offsetAt(range.start) };
    return format(text, offsets, settings).map(
      (edit) =>
        new vscode.TextEdit(
          new vscode.Range(document.positionAt(edit.offset), document.positionAt(edit.offset + edit.length)),
          edit.content,
        ),
    );
  };
  const whole = vscode.languages.registerDocumentFormattingEditProvider(selector, {
    provideDocumentFormattingEdits: (document, options) => edits(document, undefined, options),
  });
  const part = vscode.languages.registerDocumentRangeFormattingEditProvider(selector, {
    provideDocumentRangeFormattingEdits: (document, range, options) => edits(document, range, options),
  });
  return vscode.Disposable.from(whole, part);
}

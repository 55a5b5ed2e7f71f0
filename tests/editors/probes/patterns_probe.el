;;; patterns_probe.el --- which mode editors/emacs/clarvis-lsp.el gives each path  -*- lexical-binding: t; -*-
;; For every path in $CLARVIS_SAMPLES (one a line), the mode of the first `auto-mode-alist' entry matching it (as
;; `set-auto-mode' looks it up, case-sensitively), written to $CLARVIS_OUT as JSON: {path: mode or null}.
;; Run as: emacs --batch -l patterns_probe.el   (no -Q: Debian's site-start puts elpa-eglot on the load-path)

(package-initialize)
(require 'json)
(load (expand-file-name "emacs/clarvis-lsp.el" (getenv "CLARVIS_EDITORS")) nil t)

(defun probe-mode (path)
  (let* ((case-fold-search nil)
         (mode (assoc-default path auto-mode-alist #'string-match)))
    (if (symbolp mode) (and mode (symbol-name mode)) :null)))

(let ((answers (make-hash-table :test #'equal)))
  (with-temp-buffer
    (insert-file-contents (getenv "CLARVIS_SAMPLES"))
    (dolist (path (split-string (buffer-string) "\n" t))
      (puthash path (or (probe-mode path) :null) answers)))
  (with-temp-file (getenv "CLARVIS_OUT")
    (insert (json-encode answers))))

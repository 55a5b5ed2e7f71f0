;;; eglot_probe.el --- Emacs + eglot with the shipped editors/emacs/clarvis-lsp.el  -*- lexical-binding: t; -*-
;; Opens the fixture's SKILL.md and .clarvis/settings.json, waits for flymake to show the server's diagnostics,
;; checks that a README gets no server, and writes what it saw to $CLARVIS_OUT as JSON.
;; Run as: emacs --batch -l eglot_probe.el   (no -Q: Debian's site-start puts elpa-eglot on the load-path)

(package-initialize)
(require 'json)
(load (expand-file-name "emacs/clarvis-lsp.el" (getenv "CLARVIS_EDITORS")) nil t)
(setq clarvis-lsp-settings '(:includeUser :json-false))

(defvar probe-timeout (/ (string-to-number (or (getenv "CLARVIS_TIMEOUT_MS") "20000")) 1000.0))

(defun probe-open (file)
  "Visit FILE as a user would; eglot-ensure connects after the command that opened it."
  (find-file file)
  (run-hooks 'post-command-hook)
  (current-buffer))

(defun probe-codes ()
  (mapcar (lambda (d) (plist-get (alist-get 'eglot-lsp-diag (flymake-diagnostic-data d)) :code))
          (flymake-diagnostics)))

(defun probe-has-expected (expected)
  "Whether the buffer has diagnostics and every code in EXPECTED (comma-separated) is among them."
  (let ((codes (probe-codes)))
    (and codes (cl-every (lambda (code) (member code codes)) (split-string (or expected "") "," t)))))

(defun probe-wait-for-diagnostics (expected)
  (let ((deadline (+ (float-time) probe-timeout)))
    (while (and (not (probe-has-expected expected)) (< (float-time) deadline))
      (accept-process-output nil 0.05)
      (when (bound-and-true-p flymake-mode) (flymake-start)))
    (probe-has-expected expected)))

(defun probe-diagnostics ()
  (mapcar (lambda (d)
            (let ((lsp (alist-get 'eglot-lsp-diag (flymake-diagnostic-data d))))
              `((line . ,(line-number-at-pos (flymake-diagnostic-beg d)))
                (col . ,(save-excursion (goto-char (flymake-diagnostic-beg d)) (1+ (current-column))))
                (code . ,(plist-get lsp :code))
                (message . ,(flymake-diagnostic-text d)))))
          (flymake-diagnostics)))

(let ((result (list (cons 'errors nil))) (ok nil))
  (condition-case err
      (progn
        (with-current-buffer (probe-open (getenv "CLARVIS_FILE"))
          (push (cons 'mode (symbol-name major-mode)) result)
          (setq ok (probe-wait-for-diagnostics (getenv "CLARVIS_EXPECT")))
          (push (cons 'diagnostics_s (- (float-time) (string-to-number (getenv "CLARVIS_T0")))) result)
          (push (cons 'diagnostics (vconcat (probe-diagnostics))) result))
        (with-current-buffer (probe-open (getenv "CLARVIS_SETTINGS_FILE"))
          (probe-wait-for-diagnostics (getenv "CLARVIS_SETTINGS_EXPECT"))
          (push (cons 'settings_diagnostics (vconcat (probe-diagnostics))) result))
        (with-current-buffer (probe-open (getenv "CLARVIS_PLAIN_FILE"))
          (push (cons 'plain_clients (if (eglot-current-server) 1 0)) result))
        (push (cons 'clients (length (hash-table-values eglot--servers-by-project))) result))
    (error (push (cons 'errors (vector (format "%S" err))) result)))
  (push (cons 'ok (if ok t :json-false)) result)
  (with-temp-file (getenv "CLARVIS_OUT") (insert (json-encode result)))
  (dolist (server (apply #'append (hash-table-values eglot--servers-by-project)))
    (ignore-errors (eglot-shutdown server)))
  (kill-emacs (if ok 0 1)))

;;; clarvis-lsp.el --- Clarvis agent configuration files through eglot -*- lexical-binding: t; -*-

;; Usage, in your init file:
;;   (load "/path/to/clarvis-lsp/editors/emacs/clarvis-lsp.el")
;; or
;;   (add-to-list 'load-path "/path/to/clarvis-lsp/editors/emacs")
;;   (require 'clarvis-lsp)
;;
;; The files clarvis-lsp checks (SPEC §3) open in two small major modes derived from your Markdown and JSON
;; modes, `clarvis-skill-mode' and `clarvis-json-mode'; eglot starts `clarvis-lsp' (from PATH) for those
;; buffers only, so other Markdown and JSON files keep their own servers.

;;; Code:

(require 'cl-lib)
(require 'eglot)
(require 'json)
(require 'project)
(require 'seq)

(defvar eglot-lsp-context)

(defgroup clarvis-lsp nil
  "Clarvis agent configuration files checked by clarvis-lsp."
  :group 'eglot
  :prefix "clarvis-lsp-")

(defcustom clarvis-lsp-command '("clarvis-lsp")
  "The server command and its arguments."
  :type '(repeat string))

(defcustom clarvis-lsp-settings nil
  "The `clarvis' settings as a plist, sent as initializationOptions.
Keys as in the project file: :preset, :roots, :strict, :followSymlinks,
:includeUser, :rules, :settings, :exclude.  Write false as :json-false,
e.g. (:preset \"clarvis\" :includeUser :json-false).  A project can add
its own in .dir-locals.el: `eglot-workspace-configuration', section :clarvis."
  :type 'plist)

(defcustom clarvis-lsp-auto-start t
  "Whether opening a Clarvis file starts eglot (`eglot-ensure')."
  :type 'boolean)

(defconst clarvis-lsp-root-markers '(".clarvis-lsp.toml" ".clarvis" ".agents")
  "Markers of a Clarvis workspace, for files in no version-controlled project.")

;; The files clarvis-lsp checks, from editors/file-patterns.json: generated from the server's own table of file
;; kinds, so a place Clarvis adds reaches Emacs unchanged. Each is a name ("*.md": any name with that suffix) in the
;; directories given (outermost first, "*": any one name), at any depth.
(defconst clarvis-lsp--patterns-file
  (expand-file-name "../file-patterns.json" (file-name-directory (or load-file-name buffer-file-name)))
  "The generated file-patterns.json of this clarvis-lsp checkout.")

(defun clarvis-lsp--pattern-regexp (pattern)
  "A regexp matching the paths of PATTERN, an entry of file-patterns.json."
  (let ((name (alist-get 'name pattern))
        (any (rx (+ (not (any "/"))))))
    (concat "/"
            (mapconcat (lambda (directory) (concat (if (equal directory "*") any (regexp-quote directory)) "/"))
                       (alist-get 'directories pattern) "")
            (if (string-prefix-p "*" name) (concat any (regexp-quote (substring name 1))) (regexp-quote name))
            "\\'")))

(defun clarvis-lsp--regexp (language)
  "A regexp matching the paths of every pattern of LANGUAGE (\"markdown\" or \"json\")."
  (let ((patterns (let ((json-object-type 'alist) (json-array-type 'list) (json-key-type 'symbol))
                    (alist-get 'patterns (json-read-file clarvis-lsp--patterns-file)))))
    (mapconcat (lambda (pattern) (concat "\\(?:" (clarvis-lsp--pattern-regexp pattern) "\\)"))
               (seq-filter (lambda (pattern) (equal (alist-get 'language pattern) language)) patterns)
               "\\|")))

(defconst clarvis-lsp--skill-regexp (clarvis-lsp--regexp "markdown")
  "SKILL.md and agent files.")

(defconst clarvis-lsp--json-regexp (clarvis-lsp--regexp "json")
  "Settings, plugin, hooks and marketplace files.")

;; The parents are chosen when this file loads: a Markdown or JSON mode installed later is picked up on the
;; next start.
(defalias 'clarvis-lsp--markdown-parent (if (fboundp 'markdown-mode) #'markdown-mode #'text-mode))
(defalias 'clarvis-lsp--json-parent
  (cond ((fboundp 'json-mode) #'json-mode)
        ((fboundp 'js-json-mode) #'js-json-mode)
        (t #'js-mode)))

(define-derived-mode clarvis-skill-mode clarvis-lsp--markdown-parent "SKILL"
  "Mode for Clarvis SKILL.md and agent files.")

(define-derived-mode clarvis-json-mode clarvis-lsp--json-parent "Clarvis-JSON"
  "Mode for Clarvis settings, plugin, hooks and marketplace JSON files.")

(add-to-list 'auto-mode-alist (cons clarvis-lsp--skill-regexp #'clarvis-skill-mode))
(add-to-list 'auto-mode-alist (cons clarvis-lsp--json-regexp #'clarvis-json-mode))

(defun clarvis-lsp--contact (&rest _)
  "The eglot contact: `clarvis-lsp-command' and `clarvis-lsp-settings'."
  (append clarvis-lsp-command
          (list :initializationOptions (list :clarvis (or clarvis-lsp-settings (make-hash-table))))))

(add-to-list 'eglot-server-programs
             (cons '((clarvis-skill-mode :language-id "markdown") (clarvis-json-mode :language-id "json"))
                   #'clarvis-lsp--contact))

(defun clarvis-lsp--setup-buffer ()
  (when clarvis-lsp-auto-start
    (eglot-ensure)))

(add-hook 'clarvis-skill-mode-hook #'clarvis-lsp--setup-buffer)
(add-hook 'clarvis-json-mode-hook #'clarvis-lsp--setup-buffer)

(defun clarvis-lsp--find-project (dir)
  "For eglot in a Clarvis buffer outside version control: the nearest marker."
  (when (and eglot-lsp-context (derived-mode-p 'clarvis-skill-mode 'clarvis-json-mode))
    (let ((root (locate-dominating-file
                 dir (lambda (parent)
                       (cl-some (lambda (marker) (file-exists-p (expand-file-name marker parent)))
                                clarvis-lsp-root-markers)))))
      (and root (cons 'transient (expand-file-name root))))))

(add-hook 'project-find-functions #'clarvis-lsp--find-project 'append)

(provide 'clarvis-lsp)
;;; clarvis-lsp.el ends here

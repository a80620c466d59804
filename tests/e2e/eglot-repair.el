;;; eglot-repair.el --- End-to-end: Emacs's eglot against the inputmend server  -*- lexical-binding: t -*-

;; Run by tests/e2e/test_emacs.py as
;;   emacs --batch -l init.el -l eglot-repair.el
;; where init.el is the set-up documented for Emacs, which starts eglot
;; (`eglot-ensure') when a file of a known format is visited.  The
;; environment variable INPUTMEND_E2E holds a JSON object:
;;   file        the corrupt document to open
;;   result      where to write what happened (JSON), read by the Python test
;;   timeout_ms  overall budget; a watchdog ends Emacs with an error after it
;;
;; Steps, as a user would take them: visit the file (the set-up starts the
;; server), wait for inputmend's diagnostic in Flymake, run
;; `eglot-code-actions' at the diagnostic and take the default choice (RET:
;; the preferred quick fix) once the ranking is final, wait for the
;; diagnostics to clear, save, shut the server down, quit.
;;
;; Batch mode has no command loop, so this file does its part: after each
;; command it runs `post-command-hook' (where `eglot-ensure' connects), and
;; while waiting it runs the idle timers that are due (eglot sends the
;; buffer's changes from one), spinning `accept-process-output' up to a
;; deadline.  Any error ends Emacs with a non-zero status.

(require 'cl-lib)
(require 'json)
(require 'eglot)
(require 'flymake)

(defvar inputmend-e2e-result (list (cons 'steps nil))
  "What happened, as an alist written to the result file.")

(defvar inputmend-e2e-config nil
  "The decoded INPUTMEND_E2E object.")

(defun inputmend-e2e-set (key value)
  "Record VALUE under KEY in the result."
  (setf (alist-get key inputmend-e2e-result) value))

(defun inputmend-e2e-log (format-string &rest args)
  "Log a step (stderr and the result), formatted like `format'."
  (let ((line (apply #'format format-string args)))
    (message "[e2e] %s" line)
    (inputmend-e2e-set 'steps (append (alist-get 'steps inputmend-e2e-result) (list line)))))

(defun inputmend-e2e-write-result ()
  "Write the result where the test reads it."
  (when-let ((path (alist-get 'result inputmend-e2e-config)))
    (with-temp-file path
      (set-buffer-file-coding-system 'utf-8-unix)
      (insert (json-encode inputmend-e2e-result)))))

(defun inputmend-e2e-finish (status)
  "Write the result and end Emacs with STATUS, the servers stopped."
  (inputmend-e2e-write-result)
  (when (/= status 0)
    (ignore-errors
      (dolist (server (inputmend-e2e-servers))
        (eglot-shutdown server nil 2))))
  (kill-emacs status))

(defun inputmend-e2e-servers ()
  "Every running eglot server."
  (let (servers)
    (maphash (lambda (_project list) (setq servers (append list servers)))
             eglot--servers-by-project)
    servers))

(defvar inputmend-e2e-idle-since (float-time)
  "When the last command ended: Emacs has been idle since.")

(defun inputmend-e2e-command-ended ()
  "What the command loop does after a command: run `post-command-hook'
\(`eglot-ensure' connects there), and start being idle."
  (run-hooks 'post-command-hook)
  (setq inputmend-e2e-idle-since (float-time)))

(defun inputmend-e2e-run-idle-timers (ran)
  "Run the idle timers that are due after this much idleness, each once
per idle period as the command loop does (eglot sends its buffered changes
from one, Flymake checks from another); RAN lists the timers already run
in this period, the new list is returned."
  (let ((idle (- (float-time) inputmend-e2e-idle-since)))
    (dolist (timer (copy-sequence timer-idle-list) ran)
      (when (and (not (memq timer ran))
                 (<= (float-time (timer--time timer)) idle))
        (push timer ran)
        (timer-event-handler timer)))))

(defun inputmend-e2e-wait (seconds predicate)
  "Be idle until PREDICATE is true or SECONDS pass; its value.  Process
output and timers are handled meanwhile, as an idle Emacs would."
  (let ((deadline (+ (float-time) seconds))
        (ran nil)
        value)
    (while (and (not (setq value (funcall predicate)))
                (< (float-time) deadline))
      (accept-process-output nil 0.05)
      (setq ran (inputmend-e2e-run-idle-timers ran)))
    value))

(defun inputmend-e2e-diagnostics ()
  "inputmend's Flymake diagnostics in the current buffer, in buffer order."
  (sort (cl-remove-if-not
         (lambda (diagnostic)
           (string-prefix-p "inputmend" (flymake-diagnostic-text diagnostic)))
         (flymake-diagnostics))
        (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b)))))

(defun inputmend-e2e-quickfixes ()
  "The quick fixes the server offers at point (no prompt)."
  (eglot-code-actions (point) nil "quickfix"))

(defun inputmend-e2e-apply-by-default-choice ()
  "Run `eglot-code-actions' interactively at point and answer its prompt
with the default, as RET does; the prompt and the choices offered are
recorded."
  (cl-letf (((symbol-function 'completing-read)
             (lambda (prompt collection &rest args)
               (let ((default (nth 4 args))) ; PREDICATE REQUIRE-MATCH INITIAL HIST DEF
                 (inputmend-e2e-set 'prompt prompt)
                 (inputmend-e2e-set 'choices (mapcar #'car collection))
                 (inputmend-e2e-set 'chosen default)
                 default)))
            ((symbol-function 'y-or-n-p)
             (lambda (prompt)
               (error "Unexpected question: %s" prompt))))
    ;; the key that ended `M-x eglot-code-actions' (batch mode has none; a
    ;; mouse event there would make eglot pop up a menu instead of asking)
    (let ((last-nonmenu-event ?\r))
      (call-interactively #'eglot-code-actions))))

(defun inputmend-e2e-main ()
  "Open the file, apply the preferred quick fix, save, stop the server."
  (setq inputmend-e2e-config
        (json-read-from-string (or (getenv "INPUTMEND_E2E") "{}")))
  (let ((file (alist-get 'file inputmend-e2e-config))
        (budget (/ (or (alist-get 'timeout_ms inputmend-e2e-config) 45000) 1000.0)))
    (cl-assert (and file (alist-get 'result inputmend-e2e-config)) nil
               "INPUTMEND_E2E is incomplete")
    (inputmend-e2e-set 'emacs emacs-version)
    ;; A watchdog: whatever hangs, Emacs ends with an error in the end.
    (run-at-time budget nil (lambda ()
                              (inputmend-e2e-log "watchdog: no result after %s s" budget)
                              (inputmend-e2e-finish 4)))

    (find-file file)
    (inputmend-e2e-command-ended)
    (inputmend-e2e-set 'major_mode major-mode)
    (let ((server (inputmend-e2e-wait 20 #'eglot-current-server)))
      (cl-assert server nil "the set-up started no eglot server for %s" file)
      (inputmend-e2e-set 'cmd (process-command (jsonrpc--process server)))
      (inputmend-e2e-log "eglot manages the buffer: %s" (jsonrpc-name server))

      ;; 1. the diagnostic, in Flymake
      (cl-assert (inputmend-e2e-wait 20 #'inputmend-e2e-diagnostics) nil
                 "no diagnostic from inputmend in Flymake")
      (let ((first (car (inputmend-e2e-diagnostics))))
        (inputmend-e2e-set 'diagnostics
                           (mapcar #'flymake-diagnostic-text (inputmend-e2e-diagnostics)))
        (inputmend-e2e-log "diagnostic: %s" (flymake-diagnostic-text first))
        (goto-char (flymake-diagnostic-beg first)))

      ;; 2. code actions, until the background job has ranked the repairs
      (let ((attempts 0))
        (cl-assert
         (inputmend-e2e-wait
          30 (lambda ()
               (cl-incf attempts)
               (let ((preferred (cl-find-if
                                 (lambda (action) (eq (plist-get action :isPreferred) t))
                                 (inputmend-e2e-quickfixes))))
                 (if preferred
                     (inputmend-e2e-set 'preferred (plist-get preferred :title))
                   (sleep-for 0.2))
                 preferred)))
         nil "no preferred quick fix after %d codeAction requests" attempts)
        (inputmend-e2e-set 'attempts attempts))

      ;; 3. M-x eglot-code-actions, RET
      (let ((tick (buffer-chars-modified-tick)))
        (inputmend-e2e-apply-by-default-choice)
        (inputmend-e2e-command-ended)
        (cl-assert (/= tick (buffer-chars-modified-tick)) nil
                   "the chosen code action did not change the buffer"))
      (inputmend-e2e-log "applied: %s" (alist-get 'chosen inputmend-e2e-result))
      (inputmend-e2e-set 'text (buffer-substring-no-properties (point-min) (point-max)))

      ;; 4. the server sees the repaired text: its diagnostics clear
      (inputmend-e2e-set 'cleared
                         (inputmend-e2e-wait 20 (lambda () (null (inputmend-e2e-diagnostics)))))
      (inputmend-e2e-set 'remaining
                         (mapcar #'flymake-diagnostic-text (inputmend-e2e-diagnostics)))
      (save-buffer)
      (inputmend-e2e-log "saved")

      ;; 5. shutdown (eglot-shutdown signals an error unless it is answered)
      ;; and exit; jsonrpc then deletes the process without waiting for it
      (eglot-shutdown server nil 10)
      (inputmend-e2e-set 'shutdown_answered t)
      (inputmend-e2e-log "server shut down")))
  (inputmend-e2e-set 'ok t))

(condition-case err
    (progn
      (inputmend-e2e-main)
      (inputmend-e2e-finish 0))
  (error
   (inputmend-e2e-set 'error (error-message-string err))
   (inputmend-e2e-log "FAILED: %s" (error-message-string err))
   (inputmend-e2e-finish 3)))

;;; eglot-repair.el ends here

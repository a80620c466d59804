;;;; features the grammar supports
(defpackage :demo (:use :cl) (:export #:run))
(in-package :demo)
#| a block
   comment |#
(defun run (&key (n 10) (xs '(1 2 . 3)))
  "Doc string with \"escapes\" and \\ backslash"
  (let ((v #(1 2 3))
        (c #\( ) (s #\Space)
        (f #'car))
    `(,n ,@xs ,(funcall f xs) |odd symbol| pkg::internal 1.5e3 -2 1+ #xFF #+sbcl t)))

(a b)
; last line without newline
(c . d)
"""The grammar core: everything inputmend knows about a lark grammar.

The only code that reaches into lark's and Python's regex internals
(:mod:`~inputmend.grammar.lark_internals`, :mod:`~inputmend.grammar.regex`).

* :mod:`~inputmend.grammar.registry`: bundled grammars, user grammar files,
  building lark parsers;
* :mod:`~inputmend.grammar.compiled`: :class:`CompiledGrammar`, the one
  analysis of a grammar's terminals and rules;
* :mod:`~inputmend.grammar.cache`: what is built per grammar, kept on disk
  between processes;
* :mod:`~inputmend.grammar.tables`: flat LALR tables and the persistent,
  hash-consed parser stack;
* :mod:`~inputmend.grammar.lexer`: the contextual scanner and the
  error-tolerant lexer; :mod:`~inputmend.grammar.recovery`: units of
  token-level ddmax from error recovery;
* :mod:`~inputmend.grammar.scan`, :mod:`~inputmend.grammar.history`: the
  incremental scan with checkpoints, and checking any text against recent scans;
* :mod:`~inputmend.grammar.continuations`: which characters can follow a prefix;
* :mod:`~inputmend.grammar.trees`: full derivation trees (DDSET);
* :mod:`~inputmend.grammar.syntax`: the syntax roles the generic repair code
  reads (brackets, quotes, filler), derived once per grammar.
"""

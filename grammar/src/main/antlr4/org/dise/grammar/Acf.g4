// The ACF language: DISE/HPS pattern and replacement productions.
//
// The notation follows Nagpurkar et al., "Efficient Remote Profiling for
// Resource-Constrained Devices", Sections 3.3-3.5 and Fig. 6; spec/acf-language.md is
// the reference. Every alternative is labelled so that each label is one visitor
// method of org.dise.compiler.parse.AstBuilder, the only class that sees these
// contexts. Semantics (names, types, budgets) are not checked here.
grammar Acf;

// ---------------------------------------------------------------------------
// Files and items

file
    : item* EOF
    ;

item
    : IMPORT importTarget (AS ident)? SEMI?                                   #importItem
    | ACF ident (LPAREN (param (COMMA param)*)? RPAREN)? LBRACE item* RBRACE  #acfItem
    | USE qualifiedName (LPAREN (arg (COMMA arg)*)? RPAREN)? SEMI?            #useItem
    | CONST ident ASSIGN expr SEMI?                                           #constItem
    | REGISTER ident (ASSIGN expr)? SEMI?                                     #registerItem
    | COUNTER ident (LPAREN (arg (COMMA arg)*)? RPAREN)? SEMI?                #counterItem
    | SINK ident ASSIGN ident (LPAREN (arg (COMMA arg)*)? RPAREN)? SEMI?      #sinkItem
    | TRIGGER ident ASSIGN ident (LPAREN (arg (COMMA arg)*)? RPAREN)? SEMI?   #triggerItem
    | ident COLON expr ARROW action (COMMA action)* SEMI?                     #productionItem
    | ident COLON replElem (SEMI replElem)* SEMI?                             #replacementItem
    ;

importTarget
    : STRING                                                                  #fileImport
    | qualifiedName                                                           #libraryImport
    ;

// A parameter of an acf block: name, type, optional default.
param
    : ident COLON ident (ASSIGN argValue)?
    ;

// A named (key = value) or positional argument.
arg
    : ident ASSIGN argValue                                                   #namedArg
    | argValue                                                                #positionalArg
    ;

argValue
    : STRING                                                                  #stringValue
    | expr                                                                    #exprValue
    ;

// ---------------------------------------------------------------------------
// Patterns: boolean expressions over static instruction fields and counter flags.
// Precedence, loosest first: ||, &&, == !=, < <= > >=, |, ^, &, << >>, + -, * / %, unary.

expr
    : LPAREN expr RPAREN                                                      #parenExpr
    | op=(NOT | MINUS | TILDE) expr                                           #unaryExpr
    | expr op=(STAR | SLASH | PERCENT) expr                                   #binaryExpr
    | expr op=(PLUS | MINUS) expr                                             #binaryExpr
    | expr op=(SHL | SHR) expr                                                #binaryExpr
    | expr op=AMP expr                                                        #binaryExpr
    | expr op=CARET expr                                                      #binaryExpr
    | expr op=PIPE expr                                                       #binaryExpr
    | expr op=(LT | LE | GT | GE) expr                                        #binaryExpr
    | expr op=(EQ | NE) expr                                                  #binaryExpr
    | expr op=AND expr                                                        #binaryExpr
    | expr op=OR expr                                                         #binaryExpr
    | NUMBER                                                                  #numberExpr
    | (TRUE | FALSE)                                                          #boolExpr
    | FLAG                                                                    #paperFlagExpr
    | kind=(ZERO | OVERFLOW) LPAREN counterRef RPAREN                         #flagExpr
    | FIELD                                                                   #fieldExpr
    | TINSN                                                                   #insnExpr
    | DOLLAR_NAME                                                             #diseRegExpr
    | symbolAddress                                                           #symbolExpr
    | qualifiedName                                                           #nameExpr
    ;

counterRef
    : NUMBER                                                                  #counterIndex
    | ident                                                                   #counterName
    ;

// ---------------------------------------------------------------------------
// Actions after the arrow: conditional control (null or micro-ops) and replacement
// (null or a replacement name), in either order (Section 3.4 writes both), and optionally
// tag(sink): tag the instruction for a profiling co-processor without replacing it (Zilles
// and Sohi's decode-stage filter).

action
    : NULL                                                                    #nullAction
    | MICRO_OP (LPAREN microSource RPAREN)?                                   #paperMicroOp
    | kind=(INC | DEC) LPAREN counterRef RPAREN                               #incDecMicroOp
    | SET LPAREN counterRef COMMA microSource RPAREN                          #setMicroOp
    | TAG LPAREN ident RPAREN                                                 #tagAction
    | ident                                                                   #replacementRef
    ;

microSource
    : MINUS? NUMBER                                                           #constSource
    | ident                                                                   #namedSource
    ;

// ---------------------------------------------------------------------------
// Replacement sequences: RISC-V instructions with directive operands, T.INSN, calls
// into profile sinks, labels local to the sequence, and `delete`: the sequence drops the
// original instruction on purpose (the lost-instructions lint asks for it).

replElem
    : label* replStmt                                                         #labelledStmt
    | label+                                                                  #labelsOnly
    ;

label
    : LABEL COLON
    ;

replStmt
    : TINSN                                                                   #originalInsnStmt
    | DELETE                                                                  #deleteStmt
    | (DOLLAR_NAME ASSIGN)? CALL LPAREN ident (COMMA callArg)* RPAREN         #callStmt
    | NAME (operand (COMMA operand)*)?                                        #instructionStmt
    ;

callArg
    : TINSN                                                                   #insnArg
    | operandAtom                                                             #atomArg
    ;

// A plain operand first: `symbol(x)` is also `symbol` applied as an offset to a register
// named `x`, and ANTLR takes the first of two alternatives that both fit.
operand
    : operandAtom                                                             #plainOperand
    | operandAtom? LPAREN operandAtom RPAREN                                  #memOperand
    ;

operandAtom
    : MINUS? NUMBER                                                           #numberOperand
    | FIELD                                                                   #fieldOperand
    | DOLLAR_NAME                                                             #diseRegOperand
    | LABEL                                                                   #labelOperand
    | symbolAddress                                                           #symbolOperand
    | qualifiedName                                                           #nameOperand
    ;

// symbol(NAME), symbol_end(NAME): the start and end address of an ELF symbol of the program the
// productions run on, resolved when it is loaded. A name that is not an identifier (`buf.1`)
// may be quoted.
symbolAddress
    : kind=(SYMBOL | SYMBOL_END) LPAREN (qualifiedName | STRING) RPAREN
    ;

// ---------------------------------------------------------------------------
// Names. The soft keywords below are words of the language only where the rules
// above say so; elsewhere they are ordinary names (`zero` is also a RISC-V register).

qualifiedName
    : NAME
    | softKeyword
    ;

ident
    : NAME
    | softKeyword
    ;

softKeyword
    : ZERO | OVERFLOW | INC | DEC | SET | AS | USE | ACF | CONST | REGISTER
    | COUNTER | SINK | TRIGGER | IMPORT | TAG | SYMBOL | SYMBOL_END | DELETE
    ;

// ---------------------------------------------------------------------------
// Lexer

IMPORT   : 'import';
AS       : 'as';
ACF      : 'acf';
USE      : 'use';
CONST    : 'const';
REGISTER : 'register';
COUNTER  : 'counter';
SINK     : 'sink';
TRIGGER  : 'trigger';
NULL     : 'null';
CALL     : 'call';
TRUE     : 'true';
FALSE    : 'false';
ZERO     : 'zero';
OVERFLOW : 'overflow';
INC      : 'inc';
DEC      : 'dec';
SET      : 'set';
TAG      : 'tag';
SYMBOL   : 'symbol';
SYMBOL_END : 'symbol_end';
DELETE   : 'delete';

// The papers' forms: zero_0, overflow_1, inc_0, dec_2, set_0.
FLAG     : ('zero' | 'overflow') '_' [0-9]+;
MICRO_OP : ('inc' | 'dec' | 'set') '_' [0-9]+;

// Arrows: ASCII and the two the papers print.
ARROW    : '=>' | '->' | '\u2192' | '\u21D2';

AND      : '&&';
OR       : '||';
EQ       : '==';
NE       : '!=';
LE       : '<=';
GE       : '>=';
SHL      : '<<';
SHR      : '>>';
LT       : '<';
GT       : '>';
NOT      : '!';
TILDE    : '~';
AMP      : '&';
PIPE     : '|';
CARET    : '^';
PLUS     : '+';
MINUS    : '-';
STAR     : '*';
SLASH    : '/';
PERCENT  : '%';
ASSIGN   : '=';
COLON    : ':';
SEMI     : ';';
COMMA    : ',';
LPAREN   : '(';
RPAREN   : ')';
LBRACE   : '{';
RBRACE   : '}';

// T.INSN (the original instruction) before the other fields, fields before names.
TINSN    : [Tt] '.' [Ii] [Nn] [Ss] [Nn];
FIELD    : [Tt] '.' [A-Za-z_] [A-Za-z0-9_]*;

// Decimal, hex and binary, with _ separators and K, M (x1000) or Ki, Mi (x1024).
NUMBER
    : ( [0-9] [0-9_]*
      | '0' [xX] [0-9a-fA-F_]+
      | '0' [bB] [01_]+
      ) ( 'K' | 'M' | 'Ki' | 'Mi' )?
    ;

// Dotted names cover mnemonics (fadd.s, c.addi) and qualified library names.
NAME        : [A-Za-z_] [A-Za-z0-9_]* ('.' [A-Za-z0-9_]+)*;
DOLLAR_NAME : '$' [A-Za-z0-9_]+;
LABEL       : '.' [A-Za-z_] [A-Za-z0-9_]*;
STRING      : '"' (~["\\\r\n] | '\\' .)* '"';

LINE_COMMENT  : '//' ~[\r\n]* -> channel(HIDDEN);
BLOCK_COMMENT : '/*' .*? '*/' -> channel(HIDDEN);
WS            : [ \t\r\n\f]+ -> skip;

// Anything else is one bad character: the parser reports it, the lexer never throws.
ERROR_CHAR : .;

/* A small strict JSON (RFC 8259) checker for the black-box repair benchmark.
 *
 * Reads the input on stdin and exits like the FSynth study's subjects:
 *   0    the input is one valid JSON text,
 *   255  the input is a prefix of a valid JSON text (it ends too early),
 *   1    the input is invalid.
 * Written for inputmend's benchmark; iterative over nesting (an explicit stack),
 * so deep inputs cannot overflow the C stack.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *in;
static size_t len, pos;

enum { OK = 0, INCOMPLETE = 255, WRONG = 1 };

static int at_end(void) { return pos >= len; }

static void skip_ws(void) {
    while (pos < len && (in[pos] == ' ' || in[pos] == '\t' || in[pos] == '\n' || in[pos] == '\r'))
        pos++;
}

/* A literal such as "true": incomplete when the input stops inside it. */
static int literal(const char *word) {
    size_t n = strlen(word);
    for (size_t i = 0; i < n; i++, pos++) {
        if (at_end()) return INCOMPLETE;
        if (in[pos] != (unsigned char)word[i]) return WRONG;
    }
    return OK;
}

static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
static int is_hex(unsigned char c) {
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int number(void) {
    if (in[pos] == '-') { pos++; if (at_end()) return INCOMPLETE; }
    if (in[pos] == '0') pos++;
    else if (is_digit(in[pos])) { while (pos < len && is_digit(in[pos])) pos++; }
    else return WRONG;
    if (pos < len && in[pos] == '.') {
        pos++;
        if (at_end()) return INCOMPLETE;
        if (!is_digit(in[pos])) return WRONG;
        while (pos < len && is_digit(in[pos])) pos++;
    }
    if (pos < len && (in[pos] == 'e' || in[pos] == 'E')) {
        pos++;
        if (at_end()) return INCOMPLETE;
        if (in[pos] == '+' || in[pos] == '-') { pos++; if (at_end()) return INCOMPLETE; }
        if (!is_digit(in[pos])) return WRONG;
        while (pos < len && is_digit(in[pos])) pos++;
    }
    return OK;
}

static int string(void) {
    pos++; /* opening quote */
    for (;;) {
        if (at_end()) return INCOMPLETE;
        unsigned char c = in[pos++];
        if (c == '"') return OK;
        if (c < 0x20) return WRONG;
        if (c == '\\') {
            if (at_end()) return INCOMPLETE;
            c = in[pos++];
            if (c == 'u') {
                for (int i = 0; i < 4; i++) {
                    if (at_end()) return INCOMPLETE;
                    if (!is_hex(in[pos++])) return WRONG;
                }
            } else if (!strchr("\"\\/bfnrt", c) || c == 0) {
                return WRONG;
            }
        }
    }
}

/* Containers: a stack of '[' / '{' and what the parser expects next. */
enum { VALUE, KEY, COLON, AFTER };

int main(void) {
    size_t cap = 1 << 16;
    in = malloc(cap);
    size_t got;
    while ((got = fread(in + len, 1, cap - len, stdin)) > 0) {
        len += got;
        if (len == cap) { cap *= 2; in = realloc(in, cap); }
    }
    char *stack = malloc(len + 1);
    size_t depth = 0;
    int expect = VALUE;
    int first = 0; /* just after '[' or '{': a closer is allowed */
    for (;;) {
        skip_ws();
        if (at_end()) return (expect == AFTER && depth == 0) ? OK : INCOMPLETE;
        unsigned char c = in[pos];
        int result = OK;
        if (expect == VALUE) {
            if (c == '[' || c == '{') {
                stack[depth++] = (char)c; pos++;
                expect = c == '[' ? VALUE : KEY; first = 1;
                continue;
            }
            if (c == ']' && first && depth && stack[depth - 1] == '[') {
                pos++; depth--; expect = AFTER; first = 0; continue;
            }
            if (c == '"') result = string();
            else if (c == 't') result = literal("true");
            else if (c == 'f') result = literal("false");
            else if (c == 'n') result = literal("null");
            else if (c == '-' || is_digit(c)) result = number();
            else return WRONG;
            if (result != OK) return result;
            expect = AFTER; first = 0;
        } else if (expect == KEY) {
            if (c == '}' && first) { pos++; depth--; expect = AFTER; first = 0; continue; }
            if (c != '"') return WRONG;
            if ((result = string()) != OK) return result;
            expect = COLON; first = 0;
        } else if (expect == COLON) {
            if (c != ':') return WRONG;
            pos++; expect = VALUE;
        } else { /* AFTER a value */
            if (depth == 0) return WRONG; /* text after the top-level value */
            char open = stack[depth - 1];
            if (c == ',') { pos++; expect = open == '[' ? VALUE : KEY; continue; }
            if ((c == ']' && open == '[') || (c == '}' && open == '{')) {
                pos++; depth--; expect = AFTER; continue;
            }
            return WRONG;
        }
    }
}

/* The incremental scan's inner loop in C (see native.py beside it).
 *
 * StackNode: a persistent parser stack entry (a state on a parent).
 * Interner: hash-consing of stacks, one object per content.
 * Program: a grammar's lexer as DFAs (one per lark scanner, matching as
 *   Python's `re` does: the first alternative that matches, each as its
 *   backtracking would) and its LALR tables, dense.
 * run(): lexes and parses as grammar/scan.py's loop does, checkpoint for
 *   checkpoint, and stops before any token it cannot take exactly as that
 *   loop would (the Python loop then takes it).
 * Tolerant: the error-tolerant lexer's loop (grammar/tolerant.py), leaving
 *   to the Python loop every place it cannot read exactly as that loop does.
 * json_lines(): the JSON accept check (grammar/accept.py) over the lines of
 *   a partition's bytes, for record mode.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------ StackNode */

typedef struct Node {
    PyObject_HEAD
    int state;
    PyObject *parent; /* a StackNode or None */
} Node;

static PyTypeObject NodeType;

static int node_init(Node *self, PyObject *args, PyObject *kwds) {
    int state;
    PyObject *parent;
    static char *names[] = {"state", "parent", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iO", names, &state, &parent)) return -1;
    Py_INCREF(parent);
    Py_XSETREF(self->parent, parent);
    self->state = state;
    return 0;
}

static void node_dealloc(Node *self) {
    PyObject *parent = self->parent;
    self->parent = NULL;
    Py_TYPE(self)->tp_free((PyObject *)self);
    /* a long chain of plain nodes is freed in a loop, not by recursion */
    while (parent != NULL && Py_IS_TYPE(parent, &NodeType) && Py_REFCNT(parent) == 1) {
        Node *node = (Node *)parent;
        parent = node->parent;
        node->parent = NULL;
        Py_TYPE(node)->tp_free((PyObject *)node);
    }
    Py_XDECREF(parent);
}

/* states(): the states of the stack from its bottom up to this entry. */
static PyObject *node_states(Node *self, PyObject *Py_UNUSED(ignored)) {
    Py_ssize_t count = 0;
    for (PyObject *entry = (PyObject *)self; entry != Py_None; entry = ((Node *)entry)->parent) {
        if (entry == NULL || !PyObject_TypeCheck(entry, &NodeType)) {
            PyErr_SetString(PyExc_TypeError, "a stack entry that is not a StackNode");
            return NULL;
        }
        count++;
    }
    PyObject *states = PyList_New(count);
    if (states == NULL) return NULL;
    for (PyObject *entry = (PyObject *)self; entry != Py_None; entry = ((Node *)entry)->parent) {
        PyObject *state = PyLong_FromLong(((Node *)entry)->state);
        if (state == NULL) {
            Py_DECREF(states);
            return NULL;
        }
        PyList_SET_ITEM(states, --count, state);
    }
    return states;
}

static PyMethodDef node_methods[] = {
    {"states", (PyCFunction)node_states, METH_NOARGS,
     "The states of the stack from its bottom up to this entry."},
    {NULL}};

static PyMemberDef node_members[] = {
    {"state", T_INT, offsetof(Node, state), READONLY, "the parser state"},
    {"parent", T_OBJECT, offsetof(Node, parent), READONLY, "the stack below (None at the bottom)"},
    {NULL}};

static PyTypeObject NodeType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "inputmend.grammar._native.StackNode",
    .tp_basicsize = sizeof(Node),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "The top entry of a persistent parser stack: a parser state on parent.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)node_init,
    .tp_dealloc = (destructor)node_dealloc,
    .tp_members = node_members,
    .tp_methods = node_methods,
};

static Node *new_node(int state, PyObject *parent) {
    Node *node = (Node *)NodeType.tp_alloc(&NodeType, 0);
    if (node == NULL) return NULL;
    node->state = state;
    Py_INCREF(parent);
    node->parent = parent;
    return node;
}

/* ------------------------------------------------------------- Interner */

typedef struct {
    PyObject_HEAD
    Node *root;
    Node **slots; /* open addressing; NULL: empty */
    Py_ssize_t capacity, used;
} Interner;

static inline size_t slot_of(PyObject *parent, int state, Py_ssize_t capacity) {
    uint64_t key = ((uint64_t)(uintptr_t)parent >> 4) * 0x9E3779B97F4A7C15ull ^ (uint64_t)state;
    key ^= key >> 29;
    return (size_t)(key * 0xBF58476D1CE4E5B9ull >> 17) & (size_t)(capacity - 1);
}

static int interner_grow(Interner *self) {
    Py_ssize_t capacity = self->capacity ? self->capacity * 2 : 1024;
    Node **slots = PyMem_Calloc((size_t)capacity, sizeof(Node *));
    if (slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < self->capacity; i++) {
        Node *node = self->slots[i];
        if (node == NULL) continue;
        size_t at = slot_of(node->parent, node->state, capacity);
        while (slots[at] != NULL) at = (at + 1) & (size_t)(capacity - 1);
        slots[at] = node;
    }
    PyMem_Free(self->slots);
    self->slots = slots;
    self->capacity = capacity;
    return 0;
}

/* The interned node of `state` on the interned `parent` (a new reference). */
static Node *interner_push1(Interner *self, PyObject *parent, int state) {
    if (2 * (self->used + 1) > self->capacity && interner_grow(self) < 0) return NULL;
    size_t at = slot_of(parent, state, self->capacity);
    Node *found;
    while ((found = self->slots[at]) != NULL) {
        if (found->parent == parent && found->state == state) {
            Py_INCREF(found);
            return found;
        }
        at = (at + 1) & (size_t)(self->capacity - 1);
    }
    found = new_node(state, parent);
    if (found == NULL) return NULL;
    Py_INCREF(found);
    self->slots[at] = found;
    self->used++;
    return found;
}

/* `states` pushed on the interned `base` (a new reference). */
static Node *interner_push_states(Interner *self, Node *base, const int *states, Py_ssize_t count) {
    Py_INCREF(base);
    for (Py_ssize_t i = 0; i < count; i++) {
        Node *next = interner_push1(self, (PyObject *)base, states[i]);
        Py_DECREF(base);
        if (next == NULL) return NULL;
        base = next;
    }
    return base;
}

static void interner_clear_slots(Interner *self) {
    for (Py_ssize_t i = 0; i < self->capacity; i++) Py_CLEAR(self->slots[i]);
    self->used = 0;
}

static int interner_init(Interner *self, PyObject *args, PyObject *kwds) {
    PyObject *tables;
    static char *names[] = {"tables", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O", names, &tables)) return -1;
    PyObject *start = PyObject_GetAttrString(tables, "start_state");
    if (start == NULL) return -1;
    long state = PyLong_AsLong(start);
    Py_DECREF(start);
    if (state == -1 && PyErr_Occurred()) return -1;
    Node *root = new_node((int)state, Py_None);
    if (root == NULL) return -1;
    Py_XSETREF(self->root, root);
    return 0;
}

static void interner_dealloc(Interner *self) {
    interner_clear_slots(self);
    PyMem_Free(self->slots);
    Py_XDECREF(self->root);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int node_check(PyObject *object) {
    if (!PyObject_TypeCheck(object, &NodeType)) {
        PyErr_SetString(PyExc_TypeError, "a StackNode is needed");
        return 0;
    }
    return 1;
}

static PyObject *interner_push(Interner *self, PyObject *args) {
    PyObject *base, *states;
    if (!PyArg_ParseTuple(args, "OO", &base, &states) || !node_check(base)) return NULL;
    PyObject *iterator = PyObject_GetIter(states);
    if (iterator == NULL) return NULL;
    Py_INCREF(base);
    PyObject *item;
    while ((item = PyIter_Next(iterator)) != NULL) {
        long state = PyLong_AsLong(item);
        Py_DECREF(item);
        if (state == -1 && PyErr_Occurred()) break;
        Node *next = interner_push1(self, base, (int)state);
        Py_DECREF(base);
        base = (PyObject *)next;
        if (next == NULL) break;
    }
    Py_DECREF(iterator);
    if (PyErr_Occurred()) {
        Py_XDECREF(base);
        return NULL;
    }
    return base;
}

static int interned(Interner *self, Node *node) {
    if (node == self->root) return 1;
    if (self->capacity == 0) return 0;
    size_t at = slot_of(node->parent, node->state, self->capacity);
    Node *found;
    while ((found = self->slots[at]) != NULL) {
        if (found == node) return 1;
        at = (at + 1) & (size_t)(self->capacity - 1);
    }
    return 0;
}

static PyObject *interner_intern(Interner *self, PyObject *args) {
    PyObject *object;
    if (!PyArg_ParseTuple(args, "O", &object) || !node_check(object)) return NULL;
    Node *node = (Node *)object;
    Py_ssize_t count = 0, capacity = 64;
    int *states = PyMem_Malloc(sizeof(int) * (size_t)capacity);
    if (states == NULL) return PyErr_NoMemory();
    while (!interned(self, node)) {
        if (node->parent == Py_None) break; /* a stack of another root: pushed on ours */
        if (count == capacity) {
            capacity *= 2;
            int *grown = PyMem_Realloc(states, sizeof(int) * (size_t)capacity);
            if (grown == NULL) {
                PyMem_Free(states);
                return PyErr_NoMemory();
            }
            states = grown;
        }
        states[count++] = node->state;
        node = (Node *)node->parent;
    }
    for (Py_ssize_t i = 0, j = count - 1; i < j; i++, j--) {
        int swap = states[i];
        states[i] = states[j];
        states[j] = swap;
    }
    Node *result = interner_push_states(self, node, states, count);
    PyMem_Free(states);
    return (PyObject *)result;
}

static PyObject *interner_clear(Interner *self, PyObject *Py_UNUSED(ignored)) {
    interner_clear_slots(self);
    Py_RETURN_NONE;
}

static PyObject *interner_get_root(Interner *self, void *Py_UNUSED(closure)) {
    Py_INCREF(self->root);
    return (PyObject *)self->root;
}

static PyMethodDef interner_methods[] = {
    {"push", (PyCFunction)interner_push, METH_VARARGS,
     "The interned stack of states pushed on the interned stack base."},
    {"intern", (PyCFunction)interner_intern, METH_VARARGS,
     "The interned stack with the contents of node."},
    {"clear", (PyCFunction)interner_clear, METH_NOARGS, "Forget the interned stacks."},
    {NULL}};

static PyGetSetDef interner_getset[] = {
    {"root", (getter)interner_get_root, NULL, "the stack before any input", NULL}, {NULL}};

static PyTypeObject InternerType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "inputmend.grammar._native.StackInterner",
    .tp_basicsize = sizeof(Interner),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Hash-consing of stacks: one object per content.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)interner_init,
    .tp_dealloc = (destructor)interner_dealloc,
    .tp_methods = interner_methods,
    .tp_getset = interner_getset,
};

/* -------------------------------------------------------------- Program */

#define NONE INT32_MIN /* no action */
#define MAX_CLASSES 255 /* a character's class is one byte */

typedef struct {
    int ready; /* built (a scanner's DFA is installed when first needed) */
    int states, classes, start;
    uint8_t ascii[128]; /* character class of each ASCII character */
    int high;           /* class of any other character, -1: not followed */
    int32_t *next;      /* states x classes, -1: dead */
    int32_t *match;     /* per state: the terminal matched there, -1: none */
    /* per terminal: 1 where a long alternative tried before it may have read
     * far ahead (the Python loop records how far: it takes the token where
     * any terminal could still match beyond the character after it) */
    int32_t *watch;
    PyObject *retype; /* per terminal: None, or lark's callable that retypes it */
} Dfa;

typedef struct {
    PyObject_HEAD
    int n_states, n_terminals, n_nonterminals, n_dfas;
    int32_t *action;  /* states x terminals: shift >= 0, reduce -(rule + 1), NONE */
    int32_t *go;      /* states x nonterminals */
    int32_t *lengths; /* per rule */
    int32_t *origins; /* per rule: nonterminal */
    int32_t *scanner; /* per state: its DFA, -1: none */
    uint8_t *kind;    /* per terminal: 0 token, 1 ignored, 2 taken by Python */
    Dfa *dfas;
    PyObject *names; /* tuple of terminal names */
    PyObject *index; /* terminal name -> its number */
} Program;

static void program_dealloc(Program *self) {
    PyMem_Free(self->action);
    PyMem_Free(self->go);
    PyMem_Free(self->lengths);
    PyMem_Free(self->origins);
    PyMem_Free(self->scanner);
    PyMem_Free(self->kind);
    if (self->dfas != NULL) {
        for (int i = 0; i < self->n_dfas; i++) {
            PyMem_Free(self->dfas[i].next);
            PyMem_Free(self->dfas[i].match);
            PyMem_Free(self->dfas[i].watch);
            Py_XDECREF(self->dfas[i].retype);
        }
        PyMem_Free(self->dfas);
    }
    Py_XDECREF(self->names);
    Py_XDECREF(self->index);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A copy of a sequence of ints as int32 (NULL on error; `expect` -1: any length). */
static int32_t *ints_of(PyObject *sequence, Py_ssize_t expect, Py_ssize_t *length) {
    PyObject *fast = PySequence_Fast(sequence, "a sequence of ints is needed");
    if (fast == NULL) return NULL;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(fast);
    if (expect >= 0 && size != expect) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%zd ints expected, %zd given", expect, size);
        return NULL;
    }
    int32_t *out = PyMem_Malloc(sizeof(int32_t) * (size_t)(size ? size : 1));
    if (out == NULL) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; i < size; i++) {
        long value = PyLong_AsLong(items[i]);
        if (value == -1 && PyErr_Occurred()) {
            PyMem_Free(out);
            Py_DECREF(fast);
            return NULL;
        }
        out[i] = (int32_t)value;
    }
    Py_DECREF(fast);
    if (length != NULL) *length = size;
    return out;
}

/* One DFA from (states, classes, start, ascii (128 ints), high, next, match,
 * watch, retype). */
static int dfa_init(Dfa *dfa, PyObject *spec, int terminals) {
    PyObject *ascii, *next, *match, *watch, *retype;
    if (!PyArg_ParseTuple(spec, "iiiOiOOOO!", &dfa->states, &dfa->classes, &dfa->start, &ascii,
                          &dfa->high, &next, &match, &watch, &PyTuple_Type, &retype))
        return -1;
    if (PyTuple_GET_SIZE(retype) != terminals) {
        PyErr_SetString(PyExc_ValueError, "retype: one entry per terminal");
        return -1;
    }
    if (dfa->classes <= 0 || dfa->classes >= MAX_CLASSES || dfa->high >= dfa->classes) {
        PyErr_SetString(PyExc_ValueError, "a DFA's character classes out of range");
        return -1;
    }
    int32_t *table = ints_of(ascii, 128, NULL);
    if (table == NULL) return -1;
    for (int c = 0; c < 128; c++) {
        if (table[c] < 0 || table[c] >= dfa->classes) {
            PyMem_Free(table);
            PyErr_SetString(PyExc_ValueError, "an ASCII character's class out of range");
            return -1;
        }
        dfa->ascii[c] = (uint8_t)table[c];
    }
    PyMem_Free(table);
    if (!(dfa->next = ints_of(next, (Py_ssize_t)dfa->states * dfa->classes, NULL))) return -1;
    if (!(dfa->match = ints_of(match, dfa->states, NULL))) return -1;
    if (!(dfa->watch = ints_of(watch, terminals, NULL))) return -1;
    for (int i = 0; i < dfa->states; i++)
        if (dfa->match[i] >= terminals) {
            PyErr_SetString(PyExc_ValueError, "a DFA's terminal out of range");
            return -1;
        }
    for (Py_ssize_t i = 0; i < (Py_ssize_t)dfa->states * dfa->classes; i++)
        if (dfa->next[i] >= dfa->states) {
            PyErr_SetString(PyExc_ValueError, "a DFA state out of range");
            return -1;
        }
    if (dfa->start < 0 || dfa->start >= dfa->states) {
        PyErr_SetString(PyExc_ValueError, "the DFA's start state out of range");
        return -1;
    }
    Py_INCREF(retype);
    dfa->retype = retype;
    dfa->ready = 1;
    return 0;
}

/* Program(states, terminals, nonterminals, action, go, lengths, origins,
 *         scanner, kind, names, index, dfas): dfas a list of DFAs (see
 *         dfa_init) or None for one installed later (install()). */
static int program_init(Program *self, PyObject *args, PyObject *kwds) {
    PyObject *action, *go, *lengths, *origins, *scanner, *kind, *names, *index, *dfas;
    if (!PyArg_ParseTuple(args, "iiiOOOOOOOO!O", &self->n_states, &self->n_terminals,
                          &self->n_nonterminals, &action, &go, &lengths, &origins, &scanner,
                          &kind, &names, &PyDict_Type, &index, &dfas))
        return -1;
    Py_INCREF(index);
    Py_XSETREF(self->index, index);
    Py_ssize_t rules;
    if (!(self->action = ints_of(action, (Py_ssize_t)self->n_states * self->n_terminals, NULL)))
        return -1;
    if (!(self->go = ints_of(go, (Py_ssize_t)self->n_states * self->n_nonterminals, NULL)))
        return -1;
    if (!(self->lengths = ints_of(lengths, -1, &rules))) return -1;
    if (!(self->origins = ints_of(origins, rules, NULL))) return -1;
    if (!(self->scanner = ints_of(scanner, self->n_states, NULL))) return -1;
    /* every entry in range: the loop indexes the tables with them unchecked */
    for (Py_ssize_t i = 0; i < (Py_ssize_t)self->n_states * self->n_terminals; i++) {
        int32_t entry = self->action[i];
        if (entry != NONE && (entry >= self->n_states || (entry < 0 && -entry - 1 >= rules))) {
            PyErr_SetString(PyExc_ValueError, "an action out of range");
            return -1;
        }
    }
    for (Py_ssize_t i = 0; i < (Py_ssize_t)self->n_states * self->n_nonterminals; i++)
        if (self->go[i] < 0 || self->go[i] >= self->n_states) {
            PyErr_SetString(PyExc_ValueError, "a goto out of range");
            return -1;
        }
    for (Py_ssize_t i = 0; i < rules; i++)
        if (self->lengths[i] < 0 || self->origins[i] < 0 ||
            self->origins[i] >= self->n_nonterminals) {
            PyErr_SetString(PyExc_ValueError, "a rule out of range");
            return -1;
        }
    int32_t *kinds = ints_of(kind, self->n_terminals, NULL);
    if (kinds == NULL) return -1;
    self->kind = PyMem_Malloc((size_t)(self->n_terminals ? self->n_terminals : 1));
    if (self->kind == NULL) {
        PyMem_Free(kinds);
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < self->n_terminals; i++) self->kind[i] = (uint8_t)kinds[i];
    PyMem_Free(kinds);
    if (!PyTuple_Check(names) || PyTuple_GET_SIZE(names) != self->n_terminals) {
        PyErr_SetString(PyExc_ValueError, "names: a tuple of the terminals' names");
        return -1;
    }
    Py_INCREF(names);
    self->names = names;
    PyObject *fast = PySequence_Fast(dfas, "dfas: a list");
    if (fast == NULL) return -1;
    self->n_dfas = (int)PySequence_Fast_GET_SIZE(fast);
    self->dfas = PyMem_Calloc((size_t)(self->n_dfas ? self->n_dfas : 1), sizeof(Dfa));
    if (self->dfas == NULL) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < self->n_dfas; i++) {
        PyObject *spec = PySequence_Fast_GET_ITEM(fast, i);
        if (spec != Py_None && dfa_init(&self->dfas[i], spec, self->n_terminals) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    for (int i = 0; i < self->n_states; i++)
        if (self->scanner[i] >= self->n_dfas) {
            PyErr_SetString(PyExc_ValueError, "a scanner out of range");
            return -1;
        }
    return 0;
}

/* install(number, dfa): the DFA of a scanner, built when first needed. */
static PyObject *program_install(Program *self, PyObject *args) {
    int number;
    PyObject *spec;
    if (!PyArg_ParseTuple(args, "iO", &number, &spec)) return NULL;
    if (number < 0 || number >= self->n_dfas || self->dfas[number].ready) {
        PyErr_SetString(PyExc_ValueError, "no such DFA to install");
        return NULL;
    }
    Dfa built = {0};
    if (dfa_init(&built, spec, self->n_terminals) < 0) {
        PyMem_Free(built.next);
        PyMem_Free(built.match);
        PyMem_Free(built.watch);
        return NULL;
    }
    self->dfas[number] = built;
    Py_RETURN_NONE;
}

/* Runs `dfa` from `pos` as far as it can in `[pos, size)`: the terminal of
 * its last match (`*found`, -1 for none) and that match's end (`*end`,
 * left alone without one), and the first character it did not take
 * (`*at`).  Returns 1 when it could still go on at `size`, 0 when no
 * terminal can, -1 at a character it does not follow (Python tells). */
static inline int walk(const Dfa *dfa, int kind, const void *data, Py_ssize_t size,
                       Py_ssize_t pos, int *found, Py_ssize_t *end, Py_ssize_t *at) {
    int state = dfa->start, last = -1, alive = 1;
    const int32_t *next = dfa->next;
    const int classes = dfa->classes;
    Py_ssize_t i = pos, last_end = -1;
    for (; i < size; i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        int cls = ch < 128 ? dfa->ascii[ch] : dfa->high;
        if (cls < 0) {
            alive = -1;
            break;
        }
        state = next[state * classes + cls];
        if (state < 0) {
            alive = 0;
            break;
        }
        if (dfa->match[state] >= 0) {
            last = dfa->match[state];
            last_end = i + 1;
        }
    }
    *found = last;
    if (last >= 0) *end = last_end;
    *at = i;
    return alive;
}

/* The token at `pos` in the window `[0, size)` as Python's re finds it
 * there: its terminal (and `end`), -1 when no terminal matches in the
 * window, -2 when the DFA does not follow a character.  `reach`: how far
 * some terminal could still match (past the end of a complete text:
 * size + 1; of a window: size). */
static inline int lex(const Dfa *dfa, int kind, const void *data, Py_ssize_t size, Py_ssize_t pos,
                      int complete, Py_ssize_t *end, Py_ssize_t *reach) {
    int found;
    int alive = walk(dfa, kind, data, size, pos, &found, end, reach);
    if (alive < 0) return -2;
    if (alive && complete) *reach = size + 1;
    return found;
}

typedef struct {
    int *items;
    Py_ssize_t size, capacity;
} IntArray;

static int ints_push(IntArray *array, int value) {
    if (array->size == array->capacity) {
        Py_ssize_t capacity = array->capacity ? 2 * array->capacity : 64;
        int *grown = PyMem_Realloc(array->items, sizeof(int) * (size_t)capacity);
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        array->items = grown;
        array->capacity = capacity;
    }
    array->items[array->size++] = value;
    return 0;
}

/* run(interner, text, pos, size, complete, limit, base, frame, count, every, tokens,
 *     bad, snapshot, kinds, previous, previous_kinds, last_start, last_end,
 *     positions, stacks, extras, extra, offset)
 *
 * Lexes and parses `text` from `pos` on the stack `base` + `frame` as
 * grammar/scan.py's loop does (its checkpoint every `every` tokens shifted,
 * appended to positions/stacks/extras when positions is not None), and stops
 * before the first token it cannot take as that loop would, a token that
 * ends at or after `limit` or after the bad character at `bad`, or after
 * `tokens` tokens.  Returns (pos, base, frame, count, snapshot, kinds,
 * previous, previous_kinds, last_start, last_end, no_token, cut_end, cut_reach):
 * no_token is `pos` where it stopped because no terminal matches there in
 * the window, else -1; where it stopped because the window may cut the token
 * at `pos` short (a token ending at or after `limit`, or none), cut_end is
 * that token's end (-1: none) and cut_reach how far the DFA read (`size`:
 * it could go on), else both are -1.  Then (stuck, stuck_end): where it
 * stopped because the parser cannot take the token at `pos` (of a terminal
 * without a long alternative to watch), that token's terminal and end, so
 * that Python need not lex it again; else None and -1. */
static PyObject *program_run(Program *self, PyObject *args) {
    Interner *interner;
    PyObject *text, *base_object, *frame_list, *snapshot, *kinds, *previous, *previous_kinds;
    PyObject *positions, *stacks, *extras, *extra;
    Py_ssize_t pos, size, limit, count, every, tokens, bad, last_start, last_end, offset;
    int complete;
    if (!PyArg_ParseTuple(args, "O!UnnpnO!O!nnnnOOOOnnOOOOn", &InternerType, &interner, &text,
                          &pos, &size, &complete, &limit, &NodeType, &base_object, &PyList_Type,
                          &frame_list, &count, &every, &tokens, &bad, &snapshot, &kinds, &previous,
                          &previous_kinds, &last_start, &last_end, &positions, &stacks, &extras,
                          &extra, &offset))
        return NULL;
    if (every <= 0) {
        PyErr_SetString(PyExc_ValueError, "every: a positive number of tokens");
        return NULL;
    }
    if (pos < 0) {
        PyErr_SetString(PyExc_IndexError, "position out of the text");
        return NULL;
    }
    const int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    if (size > PyUnicode_GET_LENGTH(text)) size = PyUnicode_GET_LENGTH(text);
    IntArray frame = {0}, overlay = {0};
    Py_ssize_t frame_size = PyList_GET_SIZE(frame_list);
    for (Py_ssize_t i = 0; i < frame_size; i++) {
        long state = PyLong_AsLong(PyList_GET_ITEM(frame_list, i));
        if ((state == -1 && PyErr_Occurred()) || ints_push(&frame, (int)state) < 0) goto error;
    }
    Node *base = (Node *)base_object;
    Py_INCREF(base);
    Py_INCREF(snapshot);
    Py_INCREF(kinds);
    Py_INCREF(previous);
    Py_INCREF(previous_kinds);
    const int terminals = self->n_terminals, nonterminals = self->n_nonterminals;
    Py_ssize_t taken = 0, no_token = -1, cut_end = -1, cut_reach = -1, stuck_end = -1;
    PyObject *stuck = Py_None;
    while (taken < tokens) {
        int state = frame.size ? frame.items[frame.size - 1] : base->state;
        int scanner = self->scanner[state];
        if (pos >= size || scanner < 0) break;
        Py_ssize_t end = pos, reach = pos;
        const Dfa *dfa = &self->dfas[scanner];
        if (!dfa->ready) break; /* Python builds it, then calls again */
        int terminal = lex(dfa, kind, data, size, pos, complete, &end, &reach);
        if (terminal == -1) { /* no terminal matches: Python need not try its patterns */
            no_token = pos;
            cut_reach = reach;
            break;
        }
        if (terminal < 0 || end > bad || self->kind[terminal] == 2) break;
        if (end >= limit) {
            cut_end = end;
            cut_reach = reach;
            break;
        }
        if (dfa->watch[terminal] && reach > end)
            break; /* a long alternative may have read far: Python records how far */
        if (self->kind[terminal] == 1) { /* ignored: layout, no token */
            pos = end;
            continue;
        }
        PyObject *retype = PyTuple_GET_ITEM(dfa->retype, terminal);
        if (retype != Py_None) { /* a name that may be a keyword */
            PyObject *piece = PyUnicode_Substring(text, pos, end);
            if (piece == NULL) goto error_refs;
            PyObject *name = PyObject_CallOneArg(retype, piece);
            Py_DECREF(piece);
            if (name == NULL) goto error_refs;
            if (name != Py_None) {
                PyObject *number = PyDict_GetItemWithError(self->index, name);
                Py_DECREF(name);
                if (number == NULL) {
                    if (PyErr_Occurred()) goto error_refs;
                    break;
                }
                terminal = (int)PyLong_AsLong(number);
            } else {
                Py_DECREF(name);
            }
        }
        /* the reductions the token calls for, on a virtual stack first: the
         * frame's first `kept` entries, `climbed` nodes below the base gone,
         * and `overlay` pushed */
        Py_ssize_t kept = frame.size;
        Node *below = base;
        overlay.size = 0;
        int top = state;
        int32_t action = self->action[(Py_ssize_t)top * terminals + terminal];
        while (action != NONE && action < 0) {
            int rule = -action - 1;
            Py_ssize_t length = self->lengths[rule];
            if (length <= overlay.size) {
                overlay.size -= length;
            } else {
                length -= overlay.size;
                overlay.size = 0;
                if (length <= kept) {
                    kept -= length;
                } else {
                    length -= kept;
                    kept = 0;
                    for (; length > 0 && below->parent != Py_None; length--)
                        below = (Node *)below->parent;
                    if (length > 0) { /* below the bottom: Python says what is wrong */
                        action = NONE;
                        break;
                    }
                }
            }
            int under = overlay.size ? overlay.items[overlay.size - 1]
                                     : (kept ? frame.items[kept - 1] : below->state);
            top = self->go[(Py_ssize_t)under * nonterminals + self->origins[rule]];
            if (ints_push(&overlay, top) < 0) goto error_refs;
            action = self->action[(Py_ssize_t)top * terminals + terminal];
        }
        if (action == NONE) { /* the parser cannot take it: Python says why */
            if (!dfa->watch[terminal]) {
                stuck = PyTuple_GET_ITEM(self->names, terminal);
                stuck_end = end;
            }
            break;
        }
        /* commit: the reductions, then the shift */
        if (below != base) {
            Py_INCREF(below);
            Py_SETREF(base, below);
        }
        frame.size = kept;
        for (Py_ssize_t i = 0; i < overlay.size; i++)
            if (ints_push(&frame, overlay.items[i]) < 0) goto error_refs;
        if (ints_push(&frame, action) < 0) goto error_refs;
        if (PyList_Append(kinds, PyTuple_GET_ITEM(self->names, terminal)) < 0) goto error_refs;
        last_start = pos;
        last_end = end;
        pos = end;
        count++;
        taken++;
        if (count % every == 0) { /* a checkpoint */
            Node *pushed = interner_push_states(interner, base, frame.items, frame.size);
            if (pushed == NULL) goto error_refs;
            Py_SETREF(base, pushed);
            frame.size = 0;
            Py_SETREF(previous, snapshot);
            Py_SETREF(previous_kinds, kinds);
            Py_INCREF(base);
            snapshot = (PyObject *)base;
            kinds = PyList_New(0);
            if (kinds == NULL) goto error_refs;
            if (positions != Py_None) {
                PyObject *at = PyLong_FromSsize_t(pos + offset);
                if (at == NULL) goto error_refs;
                int failed = PyList_Append(positions, at) < 0 ||
                             PyList_Append(stacks, (PyObject *)base) < 0 ||
                             PyList_Append(extras, extra) < 0;
                Py_DECREF(at);
                if (failed) goto error_refs;
            }
        }
    }
    PyObject *frame_out = PyList_New(frame.size);
    if (frame_out == NULL) goto error_refs;
    for (Py_ssize_t i = 0; i < frame.size; i++) {
        PyObject *state = PyLong_FromLong(frame.items[i]);
        if (state == NULL) {
            Py_DECREF(frame_out);
            goto error_refs;
        }
        PyList_SET_ITEM(frame_out, i, state);
    }
    PyMem_Free(frame.items);
    PyMem_Free(overlay.items);
    return Py_BuildValue("nNNnNNNNnnnnnOn", pos, (PyObject *)base, frame_out, count, snapshot,
                         kinds, previous, previous_kinds, last_start, last_end, no_token, cut_end,
                         cut_reach, stuck, stuck_end);
error_refs:
    Py_DECREF(base);
    Py_XDECREF(snapshot);
    Py_XDECREF(kinds);
    Py_XDECREF(previous);
    Py_XDECREF(previous_kinds);
error:
    PyMem_Free(frame.items);
    PyMem_Free(overlay.items);
    return NULL;
}

/* DFA number `number`, installed, to run on `text` from `pos` (NULL with
 * an IndexError when there is none or `pos` is outside the text). */
static const Dfa *installed(Program *self, int number, PyObject *text, Py_ssize_t pos) {
    if (number < 0 || number >= self->n_dfas || !self->dfas[number].ready) {
        PyErr_SetString(PyExc_IndexError, "no such DFA");
        return NULL;
    }
    if (pos < 0 || pos > PyUnicode_GET_LENGTH(text)) {
        PyErr_SetString(PyExc_IndexError, "position out of the text");
        return NULL;
    }
    return &self->dfas[number];
}

/* extent(dfa, text, start, end): how many characters from `start` (up to
 * `end`) some terminal of DFA number `dfa` can still match, or is a match
 * of; -1 where the DFA does not follow a character (Python tells then). */
static PyObject *program_extent(Program *self, PyObject *args) {
    int number;
    PyObject *text;
    Py_ssize_t start, end;
    if (!PyArg_ParseTuple(args, "iUnn", &number, &text, &start, &end)) return NULL;
    const Dfa *dfa = installed(self, number, text, start);
    if (dfa == NULL) return NULL;
    if (end > PyUnicode_GET_LENGTH(text)) end = PyUnicode_GET_LENGTH(text);
    int found;
    Py_ssize_t matched, at;
    if (walk(dfa, PyUnicode_KIND(text), PyUnicode_DATA(text), end, start, &found, &matched, &at) < 0)
        return PyLong_FromLong(-1);
    return PyLong_FromSsize_t(at > start ? at - start : 0);
}

/* The match of DFA `dfa` at `pos` as Python's re gives it: its end, -1 for
 * none, -2 where the DFA does not follow a character. */
static inline Py_ssize_t match_end(const Dfa *dfa, int kind, const void *data, Py_ssize_t size,
                                   Py_ssize_t pos) {
    int found;
    Py_ssize_t end = -1, at;
    if (walk(dfa, kind, data, size, pos, &found, &end, &at) < 0) return -2;
    return found >= 0 ? end : -1;
}

/* longest(text, pos, tokens): the error-tolerant lexer's tokens from `pos`
 * (at most `tokens` of them): at each place the longest match of any DFA
 * (each one terminal's pattern, in the grammar's lexing order; the first on
 * ties), ignored terminals skipped, a character none matches as junk (-1).
 * Returns (list of (terminal, start, end), where it stopped), or None where
 * a DFA does not follow a character. */
static PyObject *program_longest(Program *self, PyObject *args) {
    PyObject *text;
    Py_ssize_t pos, tokens;
    if (!PyArg_ParseTuple(args, "Unn", &text, &pos, &tokens)) return NULL;
    if (pos < 0) {
        PyErr_SetString(PyExc_IndexError, "position out of the text");
        return NULL;
    }
    const int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    const Py_ssize_t size = PyUnicode_GET_LENGTH(text);
    PyObject *found = PyList_New(0);
    if (found == NULL) return NULL;
    Py_ssize_t taken = 0;
    while (pos < size && taken < tokens) {
        int best = -1;
        Py_ssize_t best_end = pos;
        for (int number = 0; number < self->n_dfas; number++) {
            const Dfa *dfa = &self->dfas[number];
            if (!dfa->ready) continue;
            Py_ssize_t end = match_end(dfa, kind, data, size, pos);
            if (end == -2) {
                Py_DECREF(found);
                Py_RETURN_NONE;
            }
            if (end > best_end) {
                best = number;
                best_end = end;
            }
        }
        if (best < 0) best_end = pos + 1; /* junk: a character no terminal matches */
        if (best < 0 || self->kind[best] != 1) {
            PyObject *token = Py_BuildValue("(inn)", best, pos, best_end);
            if (token == NULL || PyList_Append(found, token) < 0) {
                Py_XDECREF(token);
                Py_DECREF(found);
                return NULL;
            }
            Py_DECREF(token);
            taken++;
        }
        pos = best_end;
    }
    return Py_BuildValue("(Nn)", found, pos);
}

/* match(dfa, text, pos): the end of DFA number `dfa`'s match at `pos` as
 * Python's re gives it, -1 for none, -2 where it does not follow a
 * character. */
static PyObject *program_match(Program *self, PyObject *args) {
    int number;
    PyObject *text;
    Py_ssize_t pos;
    if (!PyArg_ParseTuple(args, "iUn", &number, &text, &pos)) return NULL;
    const Dfa *dfa = installed(self, number, text, pos);
    if (dfa == NULL) return NULL;
    return PyLong_FromSsize_t(match_end(dfa, PyUnicode_KIND(text), PyUnicode_DATA(text),
                                        PyUnicode_GET_LENGTH(text), pos));
}

static PyMethodDef program_methods[] = {
    {"match", (PyCFunction)program_match, METH_VARARGS,
     "The end of a DFA's match at a position, as Python's re gives it."},
    {"longest", (PyCFunction)program_longest, METH_VARARGS,
     "The error-tolerant lexer's tokens: the longest match of any DFA."},
    {"run", (PyCFunction)program_run, METH_VARARGS,
     "Lex and parse as the incremental scan's loop does, as far as it can."},
    {"extent", (PyCFunction)program_extent, METH_VARARGS,
     "How far from start a terminal of a DFA can still match."},
    {"install", (PyCFunction)program_install, METH_VARARGS,
     "Install the DFA of a scanner, built when first needed."},
    {NULL}};

static PyTypeObject ProgramType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "inputmend.grammar._native.Program",
    .tp_basicsize = sizeof(Program),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A grammar's lexer as DFAs and its LALR tables.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)program_init,
    .tp_dealloc = (destructor)program_dealloc,
    .tp_methods = program_methods,
};

/* ------------------------------------------------------------- Tolerant */

/* The error-tolerant lexer's loop (grammar/tolerant.py's GrammarLexer.lex,
 * for a lexer without a parser context) over a Program of one DFA per
 * terminal, in the lexer's order.  It reads what it can tell exactly as the
 * Python loop does (a character no terminal begins with, a lone literal,
 * the longest match of the terminals a character may begin) and leaves to
 * the Python loop's step (`step`) every place where it cannot: a character
 * beyond ASCII, a terminal or a character a DFA does not follow, no
 * terminal matching, a token the end of the text cuts off.  Foreign tokens
 * are Python's too (`hint`), asked where one may begin. */

#define LEXEME_FIELDS 8

typedef struct {
    PyObject_HEAD
    Program *program;
    int32_t *starts[128];   /* per ASCII character: the terminals it may begin */
    int count[128];         /* how many */
    int32_t lone[128];      /* the literal that is the character alone, -1: none */
    uint8_t foreign[128];   /* may a foreign token begin with it */
    uint8_t *ignored;       /* per terminal */
    PyObject *kinds, *roles; /* per terminal: a Lexeme's kind and role */
    PyTypeObject *make;     /* Lexeme(kind, start, end, value, role, foreign, partial, guessed) */
    PyObject *fields[LEXEME_FIELDS]; /* the member descriptors of its slots, in that order */
    PyObject *junk;         /* the junk role */
} Tolerant;

static void tolerant_dealloc(Tolerant *self) {
    for (int c = 0; c < 128; c++) PyMem_Free(self->starts[c]);
    PyMem_Free(self->ignored);
    Py_XDECREF(self->program);
    Py_XDECREF(self->kinds);
    Py_XDECREF(self->roles);
    Py_XDECREF(self->make);
    for (int i = 0; i < LEXEME_FIELDS; i++) Py_XDECREF(self->fields[i]);
    Py_XDECREF(self->junk);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Tolerant(program, starts, lone, foreign, ignored, kinds, roles, make,
 *          fields, junk): starts 128 sequences of terminal numbers, lone and
 * foreign 128 ints, ignored, kinds and roles one entry per terminal of the
 * program; make the lexemes' class, whose slots `fields` (kind, start, end,
 * value, role, foreign, partial, guessed) are all it holds: a lexeme is
 * made by setting them, as its __init__ does, without calling it. */
static int tolerant_init(Tolerant *self, PyObject *args, PyObject *kwds) {
    PyObject *program, *starts, *lone, *foreign, *ignored, *kinds, *roles, *make, *fields, *junk;
    if (!PyArg_ParseTuple(args, "O!OOOOO!O!O!O!O", &ProgramType, &program, &starts, &lone,
                          &foreign, &ignored, &PyTuple_Type, &kinds, &PyTuple_Type, &roles,
                          &PyType_Type, &make, &PyTuple_Type, &fields, &junk))
        return -1;
    if (PyTuple_GET_SIZE(fields) != LEXEME_FIELDS) {
        PyErr_SetString(PyExc_ValueError, "fields: the eight slots of a lexeme");
        return -1;
    }
    for (int i = 0; i < LEXEME_FIELDS; i++) {
        PyObject *field = PyObject_GetAttr(make, PyTuple_GET_ITEM(fields, i));
        if (field == NULL) return -1;
        if (!PyObject_TypeCheck(field, &PyMemberDescr_Type)) {
            Py_DECREF(field);
            PyErr_SetString(PyExc_TypeError, "a lexeme's field that is not a slot");
            return -1;
        }
        Py_XSETREF(self->fields[i], field);
    }
    Program *prog = (Program *)program;
    const int terminals = prog->n_dfas;
    if (PyTuple_GET_SIZE(kinds) != terminals || PyTuple_GET_SIZE(roles) != terminals) {
        PyErr_SetString(PyExc_ValueError, "kinds, roles: one entry per terminal");
        return -1;
    }
    PyObject *fast = PySequence_Fast(starts, "starts: a sequence");
    if (fast == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != 128) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "starts: one entry per ASCII character");
        return -1;
    }
    for (int c = 0; c < 128; c++) {
        Py_ssize_t length;
        int32_t *found = ints_of(PySequence_Fast_GET_ITEM(fast, c), -1, &length);
        if (found == NULL) {
            Py_DECREF(fast);
            return -1;
        }
        PyMem_Free(self->starts[c]);
        self->starts[c] = found;
        self->count[c] = (int)length;
        for (Py_ssize_t i = 0; i < length; i++)
            if (found[i] < 0 || found[i] >= terminals) {
                Py_DECREF(fast);
                PyErr_SetString(PyExc_ValueError, "a terminal out of range");
                return -1;
            }
    }
    Py_DECREF(fast);
    int32_t *table = ints_of(lone, 128, NULL);
    if (table == NULL) return -1;
    for (int c = 0; c < 128; c++) {
        if (table[c] < -1 || table[c] >= terminals) {
            PyMem_Free(table);
            PyErr_SetString(PyExc_ValueError, "a lone literal out of range");
            return -1;
        }
        self->lone[c] = table[c];
    }
    PyMem_Free(table);
    if (!(table = ints_of(foreign, 128, NULL))) return -1;
    for (int c = 0; c < 128; c++) self->foreign[c] = table[c] != 0;
    PyMem_Free(table);
    if (!(table = ints_of(ignored, terminals, NULL))) return -1;
    PyMem_Free(self->ignored);
    self->ignored = PyMem_Malloc((size_t)(terminals ? terminals : 1));
    if (self->ignored == NULL) {
        PyMem_Free(table);
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < terminals; i++) self->ignored[i] = table[i] != 0;
    PyMem_Free(table);
    Py_INCREF(program);
    Py_XSETREF(self->program, prog);
    Py_INCREF(kinds);
    Py_XSETREF(self->kinds, kinds);
    Py_INCREF(roles);
    Py_XSETREF(self->roles, roles);
    Py_INCREF(make);
    Py_XSETREF(self->make, (PyTypeObject *)make);
    Py_INCREF(junk);
    Py_XSETREF(self->junk, junk);
    return 0;
}

/* Appends the lexeme (kind, start, end, value, role) to `lexemes`: not
 * foreign, partial nor guessed. */
static int append_lexeme(Tolerant *self, PyObject *lexemes, PyObject *kind, Py_ssize_t start,
                         Py_ssize_t end, PyObject *value, PyObject *role) {
    PyObject *a = PyLong_FromSsize_t(start), *b = PyLong_FromSsize_t(end);
    if (a == NULL || b == NULL) {
        Py_XDECREF(a);
        Py_XDECREF(b);
        return -1;
    }
    PyObject *items[LEXEME_FIELDS] = {kind, a, b, value, role, Py_None, Py_False, Py_False};
    PyObject *lexeme = self->make->tp_alloc(self->make, 0);
    int failed = lexeme == NULL ? -1 : 0;
    for (int i = 0; i < LEXEME_FIELDS && !failed; i++) {
        PyObject *field = self->fields[i];
        failed = Py_TYPE(field)->tp_descr_set(field, lexeme, items[i]);
    }
    Py_DECREF(a);
    Py_DECREF(b);
    if (failed) {
        Py_XDECREF(lexeme);
        return -1;
    }
    /* Its fields are strings, ints, a role and None: it can be part of no
     * reference cycle, so the collector need not follow it (a large
     * document's hundreds of thousands of lexemes would otherwise set off
     * full collections that walk each of them again and again). */
    if (PyObject_IS_GC(lexeme)) PyObject_GC_UnTrack(lexeme);
    failed = PyList_Append(lexemes, lexeme);
    Py_DECREF(lexeme);
    return failed;
}

/* Calls `function(text, position, more, foreign, lexemes)`: the position
 * it returns (-1: the Python loop ended), -2 on an exception. */
static Py_ssize_t call_back(PyObject *function, PyObject *text, Py_ssize_t position,
                            Py_ssize_t more, PyObject *foreign, PyObject *lexemes) {
    PyObject *a = PyLong_FromSsize_t(position), *b = PyLong_FromSsize_t(more);
    if (a == NULL || b == NULL) {
        Py_XDECREF(a);
        Py_XDECREF(b);
        return -2;
    }
    PyObject *items[] = {text, a, b, foreign, lexemes};
    PyObject *result = PyObject_Vectorcall(function, items, 5, NULL);
    Py_DECREF(a);
    Py_DECREF(b);
    if (result == NULL) return -2;
    Py_ssize_t found = PyLong_AsSsize_t(result);
    Py_DECREF(result);
    if (found == -1 && PyErr_Occurred()) return -2;
    return found < -1 ? -1 : found;
}

/* The foreign tokens tried at the ASCII character `ch` in `text`: the
 * entry of `tries` (a list of 128), asked of fill(ch) the first time. */
static PyObject *tries_at(PyObject *tries, PyObject *fill, Py_UCS4 ch) {
    PyObject *entry = PyList_GET_ITEM(tries, ch);
    if (entry != Py_None) return entry;
    PyObject *code = PyLong_FromLong((long)ch);
    if (code == NULL) return NULL;
    entry = PyObject_CallOneArg(fill, code);
    Py_DECREF(code);
    if (entry == NULL) return NULL;
    if (!PyTuple_Check(entry)) {
        Py_DECREF(entry);
        PyErr_SetString(PyExc_TypeError, "fill: a tuple of (match, last, rewrite, number)");
        return NULL;
    }
    PyList_SetItem(tries, ch, entry); /* the list holds it from now on */
    return entry;
}

/* The foreign token at `pos` (grammar/tolerant.py's _ForeignTokens.longest
 * and GrammarLexer._hint): each (match, last, rewrite, number) of the
 * character's tries is matched over at most `reach_by` characters, where
 * `last` (a code point, -1: any) comes after `pos` within them and where
 * its reach automaton (DFA `number` of `reaches`, -1 or no program: none)
 * ends a match at `token_end` or later; the longest match (the first on
 * ties) is appended by found(text, pos, rewrite, match, lexemes) when it
 * reaches at least to `token_end`.  Its end; -1 for none, -2 on an
 * exception.  (A match that ends before `token_end` is never taken, so a
 * pattern that cannot reach it need not run.) */
static Py_ssize_t foreign_token(PyObject *text, Py_ssize_t pos, Py_ssize_t token_end,
                                PyObject *entry, PyObject *found_back, Py_ssize_t reach_by,
                                const Program *reaches, PyObject *lexemes) {
    static PyObject *end_name = NULL;
    const Py_ssize_t tried = PyTuple_GET_SIZE(entry);
    if (tried == 0) return -1;
    if (end_name == NULL && (end_name = PyUnicode_InternFromString("end")) == NULL) return -2;
    const Py_ssize_t size = PyUnicode_GET_LENGTH(text);
    const Py_ssize_t reach = pos + reach_by < size ? pos + reach_by : size;
    PyObject *at = PyLong_FromSsize_t(pos), *upto = PyLong_FromSsize_t(reach);
    PyObject *best = NULL, *rewrite = NULL;
    Py_ssize_t best_end = pos, result = -2;
    long lasts[8];   /* the characters looked for after `pos` (tries share a few) */
    int follows[8];
    int looked = 0;
    if (at == NULL || upto == NULL) goto done;
    for (Py_ssize_t i = 0; i < tried; i++) {
        PyObject *item = PyTuple_GET_ITEM(entry, i);
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 4) {
            PyErr_SetString(PyExc_TypeError, "a try: (match, last, rewrite, number)");
            goto done;
        }
        long number = PyLong_AsLong(PyTuple_GET_ITEM(item, 3));
        if (number == -1 && PyErr_Occurred()) goto done;
        if (reaches != NULL && number >= 0 && number < reaches->n_dfas &&
            reaches->dfas[number].ready) {
            int found;
            Py_ssize_t ended = -1, stopped;
            if (walk(&reaches->dfas[number], PyUnicode_KIND(text), PyUnicode_DATA(text), reach,
                     pos, &found, &ended, &stopped) >= 0 &&
                (found < 0 || ended < token_end))
                continue; /* no match reaches the token's end */
        }
        long last = PyLong_AsLong(PyTuple_GET_ITEM(item, 1));
        if (last == -1 && PyErr_Occurred()) goto done;
        if (last >= 0) {
            int follow = -1;
            for (int k = 0; k < looked && follow < 0; k++)
                if (lasts[k] == last) follow = follows[k];
            if (follow < 0) {
                Py_ssize_t where = PyUnicode_FindChar(text, (Py_UCS4)last, pos + 1, reach, 1);
                if (where == -2) goto done;
                follow = where >= 0;
                if (looked < 8) {
                    lasts[looked] = last;
                    follows[looked++] = follow;
                }
            }
            if (!follow) continue;
        }
        PyObject *items[] = {text, at, upto};
        PyObject *match = PyObject_Vectorcall(PyTuple_GET_ITEM(item, 0), items, 3, NULL);
        if (match == NULL) goto done;
        if (match == Py_None) {
            Py_DECREF(match);
            continue;
        }
        PyObject *ended = PyObject_CallMethodNoArgs(match, end_name);
        Py_ssize_t match_end = ended == NULL ? -1 : PyLong_AsSsize_t(ended);
        Py_XDECREF(ended);
        if (match_end == -1 && PyErr_Occurred()) {
            Py_DECREF(match);
            goto done;
        }
        if (match_end > best_end) {
            Py_XSETREF(best, match);
            rewrite = PyTuple_GET_ITEM(item, 2);
            best_end = match_end;
        } else {
            Py_DECREF(match);
        }
    }
    result = -1;
    if (best != NULL && best_end >= token_end) {
        PyObject *items[] = {text, at, rewrite, best, lexemes};
        PyObject *appended = PyObject_Vectorcall(found_back, items, 5, NULL);
        if (appended == NULL) {
            result = -2;
        } else {
            result = PyLong_AsSsize_t(appended);
            Py_DECREF(appended);
            if (result == -1 && PyErr_Occurred()) result = -2;
        }
    }
done:
    Py_XDECREF(best);
    Py_XDECREF(at);
    Py_XDECREF(upto);
    return result;
}

/* lex(text, start, end, foreign, lexemes, step, tries, fill, found, reach,
 *     reaches): appends the lexemes that start in text[start:end] to
 * `lexemes`.
 * step(text, position, end, foreign, lexemes) is one turn of the Python loop
 * at `position` (the position after it, -1 when the loop ends there).  The
 * foreign tokens (when `foreign`) are read here (see foreign_token): `tries`
 * a list of 128 (None until fill(ch) says it: the (match, last, rewrite) of
 * each foreign token tried at the ASCII character ch in this text), found
 * appends the one read, `reach` the characters one may span, `reaches` a
 * Program of the reach automata the tries number (or None). */
static PyObject *tolerant_lex(Tolerant *self, PyObject *args) {
    PyObject *text, *foreign, *lexemes, *step, *tries, *fill, *found_back, *reaches;
    Py_ssize_t pos, end, reach_by;
    if (!PyArg_ParseTuple(args, "UnnOO!OOOOnO", &text, &pos, &end, &foreign, &PyList_Type,
                          &lexemes, &step, &tries, &fill, &found_back, &reach_by, &reaches))
        return NULL;
    if (reaches != Py_None && !PyObject_TypeCheck(reaches, &ProgramType)) {
        PyErr_SetString(PyExc_TypeError, "reaches: a Program or None");
        return NULL;
    }
    const Program *reach_program = reaches == Py_None ? NULL : (const Program *)reaches;
    if (self->program == NULL || self->make == NULL) {
        PyErr_SetString(PyExc_ValueError, "a Tolerant that was not initialized");
        return NULL;
    }
    const int with_foreign = PyObject_IsTrue(foreign);
    if (with_foreign < 0) return NULL;
    if (with_foreign && !(PyList_Check(tries) && PyList_GET_SIZE(tries) == 128)) {
        PyErr_SetString(PyExc_ValueError, "tries: a list of one entry per ASCII character");
        return NULL;
    }
    if (reach_by < 1) {
        PyErr_SetString(PyExc_ValueError, "reach: at least one character");
        return NULL;
    }
    const Py_ssize_t size = PyUnicode_GET_LENGTH(text);
    if (pos < 0 || end > size) {
        PyErr_SetString(PyExc_IndexError, "a stretch out of the text");
        return NULL;
    }
    const int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    const Program *program = self->program;
    while (pos < end) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, pos);
        Py_ssize_t next;
        if (ch >= 128) goto python;
        const int count = self->count[ch];
        const int may_hint = with_foreign && self->foreign[ch];
        if (count == 0 && !may_hint) {
            if (!Py_UNICODE_ISSPACE(ch)) { /* junk: no token of any kind begins with it */
                PyObject *value = PyUnicode_Substring(text, pos, pos + 1);
                if (value == NULL) return NULL;
                int failed = append_lexeme(self, lexemes, Py_None, pos, pos + 1, value, self->junk);
                Py_DECREF(value);
                if (failed < 0) return NULL;
            }
            pos++;
            continue;
        }
        const int32_t *starts = self->starts[ch];
        int name = self->lone[ch];
        Py_ssize_t token_end = pos + 1;
        int to_the_end = 0; /* a terminal other than an ignored one reads to the text's end */
        if (name < 0) { /* the longest match, the first on ties */
            token_end = pos;
            for (int i = 0; i < count; i++) {
                const Dfa *dfa = &program->dfas[starts[i]];
                if (!dfa->ready) goto python;
                int found;
                Py_ssize_t matched = -1, at;
                if (walk(dfa, kind, data, size, pos, &found, &matched, &at) < 0) goto python;
                if (found >= 0 && matched > token_end) {
                    name = starts[i];
                    token_end = matched;
                }
                to_the_end |= at == size && !self->ignored[starts[i]];
            }
            if (name < 0) goto python; /* a comment without its end, or junk */
        }
        if (may_hint) {
            PyObject *entry = tries_at(tries, fill, ch);
            if (entry == NULL) return NULL;
            Py_INCREF(entry); /* (the callbacks could replace the list's) */
            next = foreign_token(text, pos, token_end, entry, found_back, reach_by, reach_program,
                                 lexemes);
            Py_DECREF(entry);
            if (next == -2) return NULL;
            if (next >= 0) {
                pos = next;
                continue;
            }
        }
        /* a token the end of the text cuts off (the walks above tell): the
         * Python loop reads it */
        if (self->lone[ch] < 0 && token_end < size && to_the_end) goto python;
        int blank = 1;
        for (Py_ssize_t i = pos; i < token_end && blank; i++)
            blank = Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i));
        if (!blank) {
            PyObject *value = PyUnicode_Substring(text, pos, token_end);
            if (value == NULL) return NULL;
            int failed = append_lexeme(self, lexemes, PyTuple_GET_ITEM(self->kinds, name), pos,
                                       token_end, value, PyTuple_GET_ITEM(self->roles, name));
            Py_DECREF(value);
            if (failed < 0) return NULL;
        }
        pos = token_end;
        continue;
    python:
        next = call_back(step, text, pos, end, foreign, lexemes);
        if (next == -2) return NULL;
        if (next < 0) break;
        pos = next;
    }
    Py_RETURN_NONE;
}

static PyMethodDef tolerant_methods[] = {
    {"lex", (PyCFunction)tolerant_lex, METH_VARARGS,
     "The error-tolerant lexer's lexemes of a stretch of a text."},
    {NULL}};

static PyTypeObject TolerantType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "inputmend.grammar._native.Tolerant",
    .tp_basicsize = sizeof(Tolerant),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The error-tolerant lexer's loop over a Program of one DFA per terminal.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)tolerant_init,
    .tp_dealloc = (destructor)tolerant_dealloc,
    .tp_methods = tolerant_methods,
};

/* ------------------------------------------------- JSON Lines accept check */

/* Is each line of a run of bytes one JSON text (RFC 8259), for sure?  The
 * accept check of the bundled JSON grammar (inputmend.grammar.accept) for
 * record mode, over a partition's bytes at once: no line is decoded into a
 * str and no value is built.  It accepts a line only when Python's C JSON
 * decoder (with NaN and Infinity refused) accepts the line decoded from
 * strict UTF-8: the same four whitespace characters, escapes, number syntax
 * and control characters; it refuses more (integer parts of more than 4300
 * digits, nesting deeper than JSON_MAX_DEPTH), which goes to the grammar. */

#define JSON_MAX_DEPTH 512
#define JSON_MAX_DIGITS 4300 /* Python's limit on the digits of an int read from text */

static int json_is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

static int json_is_hex(unsigned char c) {
    return json_is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static const unsigned char *json_blanks(const unsigned char *p, const unsigned char *end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    return p;
}

/* One character of strict UTF-8 (no overlong forms, no surrogates, nothing
 * past U+10FFFF), as Python's decoder reads it; p is at its first byte, not
 * ASCII.  After it, or NULL. */
static const unsigned char *json_utf8(const unsigned char *p, const unsigned char *end) {
    unsigned char c = *p;
    int more;
    unsigned char low = 0x80, high = 0xBF; /* the range of the second byte */
    if (c >= 0xC2 && c <= 0xDF) more = 1;
    else if (c >= 0xE0 && c <= 0xEF) {
        more = 2;
        if (c == 0xE0) low = 0xA0;
        if (c == 0xED) high = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        more = 3;
        if (c == 0xF0) low = 0x90;
        if (c == 0xF4) high = 0x8F;
    } else return NULL;
    if (end - p <= more || p[1] < low || p[1] > high) return NULL;
    for (int i = 2; i <= more; i++)
        if (p[i] < 0x80 || p[i] > 0xBF) return NULL;
    return p + more + 1;
}

/* A string's rest, after its opening quote: after its closing quote, or NULL. */
static const unsigned char *json_string(const unsigned char *p, const unsigned char *end) {
    while (p < end) {
        unsigned char c = *p;
        if (c == '"') return p + 1;
        if (c < 0x20) return NULL; /* a control character (the decoder is strict) */
        if (c == '\\') {
            if (++p >= end) return NULL;
            c = *p;
            if (c == 'u') {
                if (end - p < 5) return NULL;
                for (int i = 1; i <= 4; i++)
                    if (!json_is_hex(p[i])) return NULL;
                p += 5;
            } else if (c == '"' || c == '\\' || c == '/' || c == 'b' || c == 'f' || c == 'n' ||
                       c == 'r' || c == 't') {
                p++;
            } else return NULL;
        } else if (c < 0x80) {
            p++;
        } else if ((p = json_utf8(p, end)) == NULL) {
            return NULL;
        }
    }
    return NULL;
}

static const unsigned char *json_number(const unsigned char *p, const unsigned char *end) {
    if (*p == '-' && ++p >= end) return NULL;
    if (*p == '0') p++;
    else if (json_is_digit(*p)) {
        const unsigned char *first = p;
        while (p < end && json_is_digit(*p)) p++;
        if (p - first > JSON_MAX_DIGITS) return NULL;
    } else return NULL;
    if (p < end && *p == '.') {
        if (++p >= end || !json_is_digit(*p)) return NULL;
        while (p < end && json_is_digit(*p)) p++;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        if (++p < end && (*p == '+' || *p == '-')) p++;
        if (p >= end || !json_is_digit(*p)) return NULL;
        while (p < end && json_is_digit(*p)) p++;
    }
    return p;
}

static const unsigned char *json_word(const unsigned char *p, const unsigned char *end,
                                      const char *word, Py_ssize_t size) {
    return end - p >= size && memcmp(p, word, (size_t)size) == 0 ? p + size : NULL;
}

/* Is p..end one JSON text, blanks around it allowed?  Iterative, over an
 * explicit stack of the open containers. */
static int json_text(const unsigned char *p, const unsigned char *end) {
    char open[JSON_MAX_DEPTH];
    int depth = 0;
    p = json_blanks(p, end);
value:
    if (p >= end) return 0;
    switch (*p) {
    case '{':
        if (depth == JSON_MAX_DEPTH) return 0;
        open[depth++] = '}';
        p = json_blanks(p + 1, end);
        if (p < end && *p == '}') {
            depth--;
            p++;
            goto after;
        }
        goto key;
    case '[':
        if (depth == JSON_MAX_DEPTH) return 0;
        open[depth++] = ']';
        p = json_blanks(p + 1, end);
        if (p < end && *p == ']') {
            depth--;
            p++;
            goto after;
        }
        goto value;
    case '"': p = json_string(p + 1, end); break;
    case 't': p = json_word(p, end, "true", 4); break;
    case 'f': p = json_word(p, end, "false", 5); break;
    case 'n': p = json_word(p, end, "null", 4); break;
    default:
        if (*p != '-' && !json_is_digit(*p)) return 0;
        p = json_number(p, end);
    }
    if (p == NULL) return 0;
after:
    p = json_blanks(p, end);
    if (depth == 0) return p == end;
    if (p >= end) return 0;
    if (*p == ',') {
        p = json_blanks(p + 1, end);
        if (open[depth - 1] == '}') goto key;
        goto value;
    }
    if (*p != open[depth - 1]) return 0;
    depth--;
    p++;
    goto after;
key:
    if (p >= end || *p != '"' || (p = json_string(p + 1, end)) == NULL) return 0;
    p = json_blanks(p, end);
    if (p >= end || *p != ':') return 0;
    p = json_blanks(p + 1, end);
    goto value;
}

static PyObject *json_lines(PyObject *self, PyObject *args) {
    Py_buffer view;
    Py_ssize_t limit;
    if (!PyArg_ParseTuple(args, "y*n", &view, &limit)) return NULL;
    PyObject *unsure = PyList_New(0);
    if (unsure == NULL) {
        PyBuffer_Release(&view);
        return NULL;
    }
    const unsigned char *p = view.buf, *end = p + view.len;
    Py_ssize_t index = 0;
    while (p < end) { /* nothing after a final line feed is a line */
        const unsigned char *feed = memchr(p, '\n', (size_t)(end - p));
        const unsigned char *stop = feed != NULL ? feed : end;
        if (stop - p > limit || !json_text(p, stop)) {
            PyObject *number = PyLong_FromSsize_t(index);
            if (number == NULL || PyList_Append(unsure, number) < 0) {
                Py_XDECREF(number);
                Py_DECREF(unsure);
                PyBuffer_Release(&view);
                return NULL;
            }
            Py_DECREF(number);
        }
        index++;
        p = feed != NULL ? feed + 1 : end;
    }
    PyBuffer_Release(&view);
    return unsure;
}

static PyMethodDef module_functions[] = {
    {"json_lines", json_lines, METH_VARARGS,
     "json_lines(data, limit): the indices of the lines of data (split at line feeds) that "
     "are not one JSON text of at most limit bytes for sure."},
    {NULL}};

/* --------------------------------------------------------------- module */

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "inputmend.grammar._native",
    "The incremental scan's inner loop in C (see inputmend.grammar.native).", -1,
    module_functions};

PyMODINIT_FUNC PyInit__native(void) {
    if (PyType_Ready(&NodeType) < 0 || PyType_Ready(&InternerType) < 0 ||
        PyType_Ready(&ProgramType) < 0 || PyType_Ready(&TolerantType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&NodeType);
    Py_INCREF(&InternerType);
    Py_INCREF(&ProgramType);
    Py_INCREF(&TolerantType);
    if (PyModule_AddObject(m, "StackNode", (PyObject *)&NodeType) < 0 ||
        PyModule_AddObject(m, "StackInterner", (PyObject *)&InternerType) < 0 ||
        PyModule_AddObject(m, "Program", (PyObject *)&ProgramType) < 0 ||
        PyModule_AddObject(m, "Tolerant", (PyObject *)&TolerantType) < 0 ||
        PyModule_AddIntConstant(m, "NONE", NONE) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

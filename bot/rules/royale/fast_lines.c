/* The busiest lines of the simulator's log, in C (optional; see fast_lines.pyi): a round's
score lines, its token line, and its draft (the pool, the picks, the dice returned).

Built by `./dev compile-fast` next to the mypyc-compiled fast path. Pure: it only writes into
the librt BytesWriter it is given (mypy's runtime library; its struct comes from the headers
mypyc ships). Every index it is given is checked, so bad input raises, never reads outside a
list or writes outside the buffer.
*/
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include "strings/librt_strings_api.h"

#ifndef SOURCE_SHA256
#define SOURCE_SHA256 ""
#endif

#define STAGED 8    /* numbers staged a seat: yellow, the six other columns, the total */
#define NUMBER_MAX 20 /* bytes of the longest int64 in decimal, its sign included */
#define MAX_STAGED 512  /* numbers a call may take off the buffer's end */

static const char PAIRS[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

static inline int reserve(BytesWriterObject *w, Py_ssize_t n) {
    if (w->capacity - w->len >= n) return 0;
    return LibRTStrings_ByteWriter_grow_buffer_internal(w, n) ? 0 : -1;
}

/* An item of a list of ints as a C integer. */
static inline int as_int(PyObject *o, long long *v) {
    if (!PyLong_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "fast_lines: dice, seats and numbers must be ints");
        return -1;
    }
#if PY_VERSION_HEX < 0x030C0000
    Py_ssize_t size = Py_SIZE(o); /* up to 3.11: one digit or none, the sign in the size */
    if (size >= -1 && size <= 1) {
        *v = (long long)size * (long long)((PyLongObject *)o)->ob_digit[0];
        return 0;
    }
#endif
    *v = PyLong_AsLongLong(o);
    return (*v == -1 && PyErr_Occurred()) ? -1 : 0;
}

/* Writes v in decimal as str() does (at most NUMBER_MAX bytes); returns the end. */
static inline char *decimal(char *p, long long v) {
    unsigned long long u = (unsigned long long)v;
    if (v < 0) {
        *p++ = '-';
        u = 0ULL - u;
    }
    if (u < 10) {
        *p = (char)('0' + u);
        return p + 1;
    }
    if (u < 100) {
        memcpy(p, PAIRS + 2 * u, 2);
        return p + 2;
    }
    char digits[NUMBER_MAX];
    char *end = digits + NUMBER_MAX, *q = end;
    while (u >= 100) {
        q -= 2;
        memcpy(q, PAIRS + 2 * (u % 100), 2);
        u /= 100;
    }
    if (u >= 10) {
        q -= 2;
        memcpy(q, PAIRS + 2 * u, 2);
    } else {
        *--q = (char)('0' + u);
    }
    memcpy(p, q, (size_t)(end - q));
    return p + (end - q);
}

/* a + b as a piece index; -1 (out of every list) where the sum would overflow */
static inline long long add_index(long long a, long long b) {
    if ((b > 0 && a > LLONG_MAX - b) || (b < 0 && a < LLONG_MIN - b)) return -1;
    return a + b;
}

/* Copies n bytes as a few fixed-size moves (the first and the last 4, 8, 16, 32 or 64 bytes,
   overlapping), no call: pieces are mostly 10 to 100 bytes. Reads and writes only [0, n). */
static inline void copy_bytes(char *d, const char *s, size_t n) {
#define MOVE_ENDS(size)                                                                   \
    do {                                                                                  \
        char head[(size)], last[(size)];                                                  \
        memcpy(head, s, (size));                                                          \
        memcpy(last, s + n - (size), (size));                                             \
        memcpy(d, head, (size));                                                          \
        memcpy(d + n - (size), last, (size));                                             \
    } while (0)
    if (n > 128) {
        memcpy(d, s, n);
    } else if (n > 64) {
        MOVE_ENDS(64);
    } else if (n > 32) {
        MOVE_ENDS(32);
    } else if (n > 16) {
        MOVE_ENDS(16);
    } else if (n >= 8) {
        MOVE_ENDS(8);
    } else if (n >= 4) {
        MOVE_ENDS(4);
    } else if (n > 0) {
        d[0] = s[0];
        d[n / 2] = s[n / 2];
        d[n - 1] = s[n - 1];
    }
#undef MOVE_ENDS
}

/* Appends the bytes b and makes room for `extra` more bytes. */
static inline int put_bytes(BytesWriterObject *w, PyObject *b, Py_ssize_t extra) {
    Py_ssize_t n = PyBytes_GET_SIZE(b);
    if (reserve(w, n + extra) < 0) return -1;
    copy_bytes(w->buf + w->len, PyBytes_AS_STRING(b), (size_t)n);
    w->len += n;
    return 0;
}

/* Appends list[i] (bytes) and makes room for `extra` more bytes. */
static inline int put_piece(BytesWriterObject *w, PyObject *list, long long i, Py_ssize_t extra) {
    if (i < 0 || i >= PyList_GET_SIZE(list)) {
        PyErr_SetString(PyExc_IndexError, "fast_lines: a piece index is out of range");
        return -1;
    }
    PyObject *piece = PyList_GET_ITEM(list, i);
    if (!PyBytes_Check(piece)) {
        PyErr_SetString(PyExc_TypeError, "fast_lines: pieces must be bytes");
        return -1;
    }
    return put_bytes(w, piece, extra);
}

static inline long long load_le64(const unsigned char *p) {
    uint64_t u;
    memcpy(&u, p, 8);
#if PY_BIG_ENDIAN
    u = __builtin_bswap64(u);
#endif
    return (long long)u;
}

/* The `count` numbers staged at the end of the buffer, taken off it into `staged`. */
static int unstage(BytesWriterObject *w, Py_ssize_t count, long long *staged, const char *what) {
    if (count < 0 || count > MAX_STAGED || w->len < 8 * count) {
        PyErr_Format(PyExc_ValueError, "%s: the numbers must be staged at the buffer's end", what);
        return -1;
    }
    w->len -= 8 * count;
    for (Py_ssize_t k = 0; k < count; k++)
        staged[k] = load_le64((const unsigned char *)w->buf + w->len + 8 * k);
    return 0;
}

/* Appends the pieces of a JSON list's items: first[d] for the first, rest[d] for the others. */
static int put_items(BytesWriterObject *w, PyObject *first, PyObject *rest, const long long *dice,
                     Py_ssize_t count) {
    for (Py_ssize_t i = 0; i < count; i++)
        if (put_piece(w, i ? rest : first, dice[i], 0) < 0) return -1;
    return 0;
}

/* The score line's column names, each written before its staged number. */
#define COLUMN(text) {text, sizeof(text) - 1}
static const struct {
    const char *text;
    size_t size;
} COLUMNS[STAGED] = {
    COLUMN("],\"columns\":{\"yellow\":"), COLUMN(",\"purple\":"), COLUMN(",\"blue\":"),
    COLUMN(",\"red\":"), COLUMN(",\"green\":"), COLUMN(",\"clear\":"), COLUMN(",\"pink\":"),
    COLUMN("},\"total\":"),
};

static PyObject *score_lines(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "score_lines takes 8 arguments");
        return NULL;
    }
    PyObject *out = args[0], *heads = args[1], *hands = args[3], *values = args[4];
    PyObject *first = args[5], *rest = args[6], *tail = args[7];
    if (!CPyBytesWriter_Check(out) || !PyList_Check(heads) || !PyList_Check(hands)
        || !PyList_Check(values) || !PyList_Check(first) || !PyList_Check(rest)
        || !PyBytes_Check(tail)) {
        PyErr_SetString(PyExc_TypeError, "score_lines(out: BytesWriter, heads: list, at: int, "
                        "hands: list, values: list, first: list, rest: list, tail: bytes)");
        return NULL;
    }
    BytesWriterObject *w = (BytesWriterObject *)out;
    long long at;
    if (as_int(args[2], &at) < 0) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(hands), nv = PyList_GET_SIZE(values);
    long long staged[MAX_STAGED];
    if (n > MAX_STAGED / STAGED || unstage(w, STAGED * n, staged, "score_lines") < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "score_lines: at most 64 hands");
        return NULL;
    }
    const char *tail_text = PyBytes_AS_STRING(tail);
    Py_ssize_t tail_size = PyBytes_GET_SIZE(tail);
    for (Py_ssize_t seat = 0; seat < n; seat++) {
        if (put_piece(w, heads, add_index(at, seat), 0) < 0) return NULL;
        PyObject *hand = PyList_GET_ITEM(hands, seat);
        if (!PyList_Check(hand)) {
            PyErr_SetString(PyExc_TypeError, "score_lines: a hand must be a list");
            return NULL;
        }
        PyObject *pieces = first;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(hand); i++) {
            long long d, v;
            if (as_int(PyList_GET_ITEM(hand, i), &d) < 0) return NULL;
            if (d < 0 || d >= nv) {
                PyErr_SetString(PyExc_IndexError, "score_lines: a die has no value");
                return NULL;
            }
            if (put_piece(w, pieces, d, NUMBER_MAX + 1) < 0) return NULL;
            if (as_int(PyList_GET_ITEM(values, d), &v) < 0) return NULL;
            char *p = decimal(w->buf + w->len, v);
            *p++ = '}';
            w->len = p - w->buf;
            pieces = rest;
        }
        const long long *c = staged + STAGED * seat;
        if (reserve(w, 100 + STAGED * NUMBER_MAX + tail_size) < 0) return NULL;
        char *p = w->buf + w->len;
#if defined(__GNUC__)
#pragma GCC unroll 8 /* unrolled, each name's copy is a few constant stores */
#endif
        for (int k = 0; k < STAGED; k++) {
            memcpy(p, COLUMNS[k].text, COLUMNS[k].size);
            p = decimal(p + COLUMNS[k].size, c[k]);
        }
        memcpy(p, tail_text, (size_t)tail_size);
        w->len = (p - w->buf) + tail_size;
    }
    Py_RETURN_NONE;
}

/* token_line(out, head, key, key_next, yellow): head, then each seat's key and yellow total. */
static PyObject *token_line(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 5 || !CPyBytesWriter_Check(args[0]) || !PyBytes_Check(args[1])
        || !PyList_Check(args[2]) || !PyList_Check(args[3]) || !PyList_Check(args[4])) {
        PyErr_SetString(PyExc_TypeError, "token_line(out: BytesWriter, head: bytes, key: list, "
                        "key_next: list, yellow: list)");
        return NULL;
    }
    BytesWriterObject *w = (BytesWriterObject *)args[0];
    PyObject *yellow = args[4];
    if (put_bytes(w, args[1], 0) < 0) return NULL;
    for (Py_ssize_t seat = 0; seat < PyList_GET_SIZE(yellow); seat++) {
        long long v;
        if (put_piece(w, seat ? args[3] : args[2], seat, NUMBER_MAX) < 0) return NULL;
        if (as_int(PyList_GET_ITEM(yellow, seat), &v) < 0) return NULL;
        w->len = decimal(w->buf + w->len, v) - w->buf;
    }
    Py_RETURN_NONE;
}

/* draft_lines(out, pool_size, picks, pool_head, die, die_next, pick_heads, at, ids, id_next,
   return_head, returned, tail, bracket_tail) */
static PyObject *draft_lines(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 14 || !CPyBytesWriter_Check(args[0]) || !PyBytes_Check(args[3])
        || !PyList_Check(args[4]) || !PyList_Check(args[5]) || !PyList_Check(args[6])
        || !PyList_Check(args[8]) || !PyList_Check(args[9]) || !PyBytes_Check(args[10])
        || !PyList_Check(args[11]) || !PyBytes_Check(args[12]) || !PyBytes_Check(args[13])) {
        PyErr_SetString(PyExc_TypeError, "draft_lines(out: BytesWriter, pool_size: int, "
                        "picks: int, pool_head: bytes, die: list, die_next: list, "
                        "pick_heads: list, at: int, ids: list, id_next: list, return_head: "
                        "bytes, returned: list, tail: bytes, bracket_tail: bytes)");
        return NULL;
    }
    BytesWriterObject *w = (BytesWriterObject *)args[0];
    long long pool_size, picks, at;
    if (as_int(args[1], &pool_size) < 0 || as_int(args[2], &picks) < 0
        || as_int(args[7], &at) < 0)
        return NULL;
    long long staged[MAX_STAGED];
    if (pool_size < 0 || picks < 0 || pool_size > MAX_STAGED || picks > MAX_STAGED
        || pool_size + 2 * picks > MAX_STAGED) {
        PyErr_SetString(PyExc_ValueError, "draft_lines: the numbers must be staged at the "
                        "buffer's end");
        return NULL;
    }
    if (unstage(w, (Py_ssize_t)(pool_size + 2 * picks), staged, "draft_lines") < 0) return NULL;
    if (put_bytes(w, args[3], 0) < 0 || put_items(w, args[4], args[5], staged, pool_size) < 0
        || put_bytes(w, args[13], 0) < 0)
        return NULL;
    for (long long i = 0; i < picks; i++) {
        const long long *pick = staged + pool_size + 2 * i; /* seat, die */
        if (put_piece(w, args[6], add_index(at, pick[0]), 0) < 0
            || put_piece(w, args[8], pick[1], 0) < 0
            || put_bytes(w, args[12], 0) < 0)
            return NULL;
    }
    PyObject *returned = args[11];
    long long back[MAX_STAGED];
    Py_ssize_t count = PyList_GET_SIZE(returned);
    if (count > MAX_STAGED) {
        PyErr_SetString(PyExc_ValueError, "draft_lines: too many dice returned");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < count; i++)
        if (as_int(PyList_GET_ITEM(returned, i), &back[i]) < 0) return NULL;
    if (put_bytes(w, args[10], 0) < 0 || put_items(w, args[8], args[9], back, count) < 0
        || put_bytes(w, args[13], 0) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"score_lines", (PyCFunction)(void (*)(void))score_lines, METH_FASTCALL,
     "Replace the columns staged at the end of the buffer by the round's score lines."},
    {"token_line", (PyCFunction)(void (*)(void))token_line, METH_FASTCALL,
     "Write a token line's head and yellow totals."},
    {"draft_lines", (PyCFunction)(void (*)(void))draft_lines, METH_FASTCALL,
     "Replace the pool and picks staged at the end of the buffer by the round's draft lines."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "fast_lines", "The busiest lines of the simulator's log, in C.", -1,
    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit_fast_lines(void) {
    if (import_librt_strings() < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddStringConstant(m, "SOURCE_SHA256", SOURCE_SHA256) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

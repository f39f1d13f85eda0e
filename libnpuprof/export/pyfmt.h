/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnpuprof export/: msprof's Python numbers (pyfmt.c), private to
 * export/.
 */
#ifndef NPA_PYFMT_H
#define NPA_PYFMT_H

#include "core/core.h"

/*
 * The numbers of msprof's Python parser, byte for byte.
 *
 * msprof writes its CSV and JSON files from Python floats and Decimals:
 * str() of a float, round() in Python and in SQLite's SQL, and Decimal
 * sums quantized to 3 decimals. Each function here is one such Python
 * expression (CPython 3.11, SQLite 3.40.1 as on Debian 12), reproduced
 * exactly for every input, not merely for the common ones (within the
 * limits given); the expression is given with each. Those writing text
 * write at p and return the end of what they wrote, with a NUL there (not
 * counted).
 */

/* bytes any function here may write, the NUL included */
/* the bits of @v (its IEEE 754 binary64 form) */
static inline uint64_t npa_bits(double v)
{
	uint64_t b;

	memcpy(&b, &v, sizeof(b));
	return b;
}

#define NPA_PY_FMT_MAX 48

/*
 * repr(v) == str(v) of a Python float: the shortest digits that read back
 * as v (the nearest such when several), "40.0", "0.889",
 * "1735689600001000.0" for 1e-4 <= |v| < 1e16, "1e-05", "1.5e+16" outside,
 * "inf", "-inf", "nan", "-0.0". Every float msprof prints goes through
 * this (str(x), f"{x}", json.dumps(x) and the csv module all use repr).
 * At most 24 characters.
 */
char *npa_py_repr(char *p, double v);

/*
 * round(x, ndigits) in Python, ndigits >= 0 (round(x, 0) is a float too):
 * the decimal nearest x at ndigits decimals, ties to even on the exact
 * binary value (round(2.675, 2) == 2.67, round(0.125, 2) == 0.12), read
 * back as the nearest double: msprof's round(value, 3) and the like in
 * its Python-side computations. ndigits < 0 is taken as 0.
 */
double npa_py_round(double x, int ndigits);

/*
 * round(x, n) in SQLite 3.40.1's SQL, n >= 0 (the msprof queries that
 * round in SELECT): n == 0 adds +-0.5 and truncates to an integer
 * (round(0.49999999999999994) == 1.0); otherwise SQLite's own printf
 * "%.*f" (long double arithmetic, ties away from zero after a bias of
 * 3e-16 relative, at most 16 significant digits) read back by
 * sqlite3AtoF(); |x| > 2^52 is returned as is. NaN (SQL NULL) comes back
 * as NaN.
 */
double npa_sqlite_round(double x, int n);

/*
 * The msprof timestamp of a device time: with Python's default decimal
 * context (28 digits, ROUND_HALF_EVEN),
 *
 *   str((Decimal(v_repr) / 1000 + Decimal(off_repr)).quantize(Decimal('0.000')))
 *
 * where v_repr is str() of the nanoseconds (an int or a float) and
 * off_repr str() of the microsecond offset (a float), e.g.
 * ("1000010500000", "1735689599000000.0") -> "1735690599010500.000".
 * Always 3 decimals, "-" when negative (also "-0.000"); "NaN" for a nan
 * operand, as Decimal prints it. Where Python raises (a result of more
 * than 28 digits, an infinite operand, a malformed string) this writes
 * "nan". Strings are taken as str() writes them: no spaces, no '_'.
 * Exact for operands of up to 36 significant digits (str() of a float or
 * an int has at most 20); digits past the 36th are kept only as a sticky
 * digit, which can be wrong when such operands cancel each other.
 */
char *npa_py_local_time(char *p, const char *v_repr, const char *off_repr);
/* npa_py_local_time() of repr(v_ns) and repr(off_us) */
char *npa_py_local_time_d(char *p, double v_ns, double off_us);
/* npa_py_local_time() of str(v_ns) (a Python int) and repr(off_us) */
char *npa_py_local_time_i(char *p, int64_t v_ns, double off_us);

/*
 * msprof's float_calculate() of a task end from its start and duration:
 *
 *   str((Decimal(a) + Decimal(b)).quantize(Decimal('0.000')))
 *
 * a and b being str() of ints or floats; "NaN" and "nan" as for
 * npa_py_local_time().
 */
char *npa_py_decimal_add3(char *p, const char *a, const char *b);
/* the same of Decimal(repr(a)) + Decimal(repr(b)), without the strings */
char *npa_py_decimal_add3_d(char *p, double a, double b);

/*
 * A duration from two timestamp strings, as a float:
 *
 *   repr(float(Decimal(a) - Decimal(b)))
 *
 * the difference rounded to 28 digits (half even), then to the nearest
 * double. "inf"/"nan" as Python gives them; "nan" where it raises.
 */
char *npa_py_decimal_diff_repr(char *p, const char *a, const char *b);

/*
 * Decimal(a) compared with the float b by their exact values, as Python
 * compares a Decimal with a float (msprof's timeline window:
 * float(collectionTimeBegin) <= Decimal(ts)): < 0, 0 or > 0. @a is a
 * plain decimal ("-"? digits ["." digits]), as the timestamps here; @b is
 * finite, exact here down to 2^-70 (timestamps have no such bits).
 */
int npa_py_decimal_cmp_float(const char *a, double b);

#endif /* NPA_PYFMT_H */

// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: SQLite's round(x, n), as msprof's parser gets it from the
 * SQLite of Debian 12 (export/pyfmt.h): a transcription of SQLite's own
 * long double printf and atof, since its results are not correctly
 * rounded and must be matched as they are.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "export/pyfmt.h"

/*
 * sqlite3AtoF() for what npa_sqlite_printf_f() writes: [-]digits.digits.
 * Digits go into a 64-bit significand while it stays below
 * (2^63 - 10) / 10, trailing zeros are moved back to the exponent, and the
 * result is significand / 10^e in long double, then rounded to double
 * (twice rounded, as SQLite does). It stops at the first character that
 * is not a digit, as SQLite does.
 */
static double npa_sqlite_atof(const char *z)
{
	const int64_t lim = (INT64_MAX - 9) / 10;
	int64_t s = 0;
	int sign = 1, d = 0, e, esign;
	long double scale = 1.0;

	if (*z == '-') {
		sign = -1;
		z++;
	}
	while (*z >= '0' && *z <= '9') {
		s = s * 10 + (*z++ - '0');
		if (s >= lim) {
			while (*z >= '0' && *z <= '9') {
				z++;
				d++;
			}
		}
	}
	if (*z == '.') {
		z++;
		while (*z >= '0' && *z <= '9') {
			if (s < lim) {
				s = s * 10 + (*z - '0');
				d--;
			}
			z++;
		}
	}
	e = d < 0 ? -d : d;
	esign = d < 0 ? -1 : 1;
	if (!s)
		return sign < 0 ? -0.0 : 0.0;
	while (e > 0) {
		if (esign > 0) {
			if (s >= INT64_MAX / 10)
				break;
			s *= 10;
		} else {
			if (s % 10)
				break;
			s /= 10;
		}
		e--;
	}
	s = sign < 0 ? -s : s;
	if (!e)
		return (double)s;
	while (e % 22) {
		scale *= 1.0e+1;
		e -= 1;
	}
	while (e > 0) {
		scale *= 1.0e+22;
		e -= 22;
	}
	return esign < 0 ? (double)(s / scale) : (double)(s * scale);
}

/* et_getdigit(): the leading digit of 1 <= *val < 10, then *val = frac * 10 */
static char npa_sqlite_digit(long double *val, int *cnt)
{
	int digit;
	long double d;

	if (*cnt <= 0)
		return '0';
	(*cnt)--;
	digit = (int)*val;
	d = digit;
	*val = (*val - d) * 10.0;
	return (char)(digit + '0');
}

/*
 * SQLite 3.40's printf "%.*f" of |x| <= 2^52, 1 <= precision <= 30,
 * transcribed from sqlite3_str_vappendf() (etFLOAT, no flags): a rounder
 * of 0.5 * 10^-precision (plus 3e-16 relative when few digits are
 * asked) is added in long double, the value is scaled to [1, 10) and 16
 * digits are peeled off; zeros follow. Types and operation order are
 * kept, since every rounding of them shows in some output.
 */
static void npa_sqlite_printf_f(char *buf, double x, int precision)
{
	static const double ar_round[] = {
		5.0e-01, 5.0e-02, 5.0e-03, 5.0e-04, 5.0e-05,
		5.0e-06, 5.0e-07, 5.0e-08, 5.0e-09, 5.0e-10,
	};
	long double realvalue = x;
	double rounder;
	int idx, exp = 0, e2, nsd = 16;
	char *bufpt = buf;

	if (realvalue < 0.0) {
		realvalue = -realvalue;
		*bufpt++ = '-';
	}
	idx = precision & 0xfff;
	rounder = ar_round[idx % 10];
	while (idx >= 10) {
		rounder *= 1.0e-10;
		idx -= 10;
	}
	{
		double rx = (double)realvalue;
		int ex = -1023 + (int)((npa_bits(rx) >> 52) & 0x7ff);

		if (precision + (ex / 3) < 15)
			rounder += realvalue * 3e-16;
		realvalue += rounder;
	}
	if (realvalue > 0.0) {
		long double scale = 1.0;

		while (realvalue >= 1e100 * scale && exp <= 350) {
			scale *= 1e100;
			exp += 100;
		}
		while (realvalue >= 1e10 * scale && exp <= 350) {
			scale *= 1e10;
			exp += 10;
		}
		while (realvalue >= 10.0 * scale && exp <= 350) {
			scale *= 10.0;
			exp++;
		}
		realvalue /= scale;
		while (realvalue < 1e-8) {
			realvalue *= 1e8;
			exp -= 8;
		}
		while (realvalue < 1.0) {
			realvalue *= 10.0;
			exp--;
		}
	}
	e2 = exp;
	if (e2 < 0) {
		*bufpt++ = '0';
	} else {
		for (; e2 >= 0; e2--)
			*bufpt++ = npa_sqlite_digit(&realvalue, &nsd);
	}
	*bufpt++ = '.';
	for (e2++; e2 < 0; precision--, e2++)
		*bufpt++ = '0';
	while (precision-- > 0)
		*bufpt++ = npa_sqlite_digit(&realvalue, &nsd);
	*bufpt = '\0';
}

/*
 * roundFunc() of SQLite 3.40.1's func.c: n clamped to 0..30; |x| > 2^52
 * returned as is; n == 0 by a cast; otherwise printf and atof.
 */
double npa_sqlite_round(double x, int n)
{
	char buf[80];

	if (n > 30)
		n = 30;
	if (n < 0)
		n = 0;
	if (x != x)
		return x;
	if (x < -4503599627370496.0 || x > +4503599627370496.0)
		return x;
	/* printf writes "0.000" for 0 and -0, which reads back as +0 (half of a split row) */
	if (x == 0)
		return 0.0;
	if (!n)
		return (double)(long long)(x + (x < 0 ? -0.5 : +0.5));
	npa_sqlite_printf_f(buf, x, n);
	return npa_sqlite_atof(buf);
}

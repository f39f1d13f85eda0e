// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: Python's float repr and round() and msprof's Decimal
 * timestamps, reproduced exactly (see export/pyfmt.h, "msprof's Python
 * numbers"; SQLite's round(): sqlite_round.c).
 *
 * repr and Python's round are computed with exact integer arithmetic on
 * the double's mantissa (printf and strtod only for reprs in exponent
 * form, and round beyond 22 digits); the Decimal functions work on 128-bit coefficients with a
 * decimal exponent.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/pyfmt.h"
#include "export/output.h"

#define NPA_MANT_MASK ((1ULL << 52) - 1)
#define NPA_E19 10000000000000000000ULL

static const uint64_t npa_p10[20] = {
	1ULL,
	10ULL,
	100ULL,
	1000ULL,
	10000ULL,
	100000ULL,
	1000000ULL,
	10000000ULL,
	100000000ULL,
	1000000000ULL,
	10000000000ULL,
	100000000000ULL,
	1000000000000ULL,
	10000000000000ULL,
	100000000000000ULL,
	1000000000000000ULL,
	10000000000000000ULL,
	100000000000000000ULL,
	1000000000000000000ULL,
	NPA_E19,
};

/* every power of ten a double holds exactly */
static const double npa_p10d[23] = {
	1e0,  1e1,  1e2,  1e3,	1e4,  1e5,  1e6,  1e7,	1e8,  1e9,  1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* 10^k for 0 <= k <= 38, the largest a u128 holds */
static npa_u128 npa_p10q(int k)
{
	if (k <= 19)
		return npa_p10[k];
	return (npa_u128)NPA_E19 * npa_p10[k - 19];
}

/* decimal digits of v (1 for 0) */
static unsigned int npa_ndig64(uint64_t v)
{
	/* the count is t = floor(bits * log10(2)) or t + 1; v | 1 has v's count */
	uint64_t u = v | 1;
	unsigned int t = (unsigned int)((64 - __builtin_clzll(u)) * 1233) >> 12;

	return t - (u < npa_p10[t]) + 1;
}

/* decimal digits of v (1 for 0) */
static int npa_ndig128(npa_u128 v)
{
	uint64_t hi = (uint64_t)(v >> 64);
	int bits, t;

	if (!hi)
		return (int)npa_ndig64((uint64_t)v);
	bits = 128 - __builtin_clzll(hi);
	t = (bits * 1233) >> 12;
	return t - (v < npa_p10q(t)) + 1;
}

/* the n digits of v (n == npa_ndig64(v)), right-aligned at p + n */
static void npa_put_digits(char *p, uint64_t v, unsigned int n)
{
	char *q = p + n;

	while (v >= 100) {
		unsigned int r = (unsigned int)(v % 100);

		v /= 100;
		q -= 2;
		memcpy(q, npa_digits2 + 2 * r, 2);
	}
	if (v >= 10) {
		q -= 2;
		memcpy(q, npa_digits2 + 2 * v, 2);
	} else {
		*--q = (char)('0' + v);
	}
}

static char *npa_put_u64(char *p, uint64_t v)
{
	unsigned int n = npa_ndig64(v);

	npa_put_digits(p, v, n);
	return p + n;
}

static char *npa_put_u128(char *p, npa_u128 v)
{
	uint64_t lo;
	unsigned int n;

	if (!(v >> 64))
		return npa_put_u64(p, (uint64_t)v);
	p = npa_put_u128(p, v / NPA_E19);
	lo = (uint64_t)(v % NPA_E19);
	/* the low part, zero-padded to 19 digits */
	n = npa_ndig64(lo);
	memset(p, '0', 19 - n);
	npa_put_digits(p + 19 - n, lo, n);
	return p + 19;
}

static char *npa_put_str(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n + 1);
	return p + n;
}

/* ---- repr ---- */

/*
 * The shortest digits of a positive normal double x = M * 2^E with
 * 1e-4 <= x < 1e16, where repr uses fixed notation: m * 10^-d for the
 * smallest d such that some integer m reads back as x, and of those the
 * m nearest x (ties to even), which is what dtoa's mode 0 returns.
 * Everything is scaled by 2^(2 - E), so that x, the two midpoints to its
 * neighbours and their products by 10^d are integers: with E >= -66 and
 * d <= 21 (17 digits always read back) they stay below 2^125. A decimal
 * exactly on a midpoint reads back as x when M is even (strtod rounds
 * ties to even).
 */
static void npa_shortest_fixed(uint64_t frac, unsigned int bexp, uint64_t *m_out,
			       unsigned int *d_out)
{
	uint64_t mant = frac | (1ULL << 52);
	int k = 2 - ((int)bexp - 1075);
	bool incl = !(mant & 1);
	npa_u128 x = (npa_u128)mant << 2;
	npa_u128 hi = x + 2;
	/*
	 * At a power of two the neighbour below is half as far. (In this
	 * range a power of two is a short exact decimal, found before that
	 * matters, but the bound is kept exact.)
	 */
	npa_u128 lo = x - (frac ? 2 : 1);
	npa_u128 half = (npa_u128)1 << (k - 1);
	npa_u128 mask = ((npa_u128)1 << k) - 1;
	unsigned int d;
	uint64_t m;

	for (d = 0;; d++) {
		npa_u128 mlo, mhi, mx;

		if (d) {
			x *= 10;
			hi *= 10;
			lo *= 10;
		}
		mlo = incl ? (lo + mask) >> k : (lo >> k) + 1;
		mhi = incl ? hi >> k : (hi - 1) >> k;
		if (mlo > mhi)
			continue;
		/* the nearest, ties (x = ...922.25 at d = 1) to even as dtoa */
		mx = (x + half) >> k;
		if ((x & mask) == half && (mx & 1))
			mx--;
		m = (uint64_t)(mx < mlo ? mlo : mx > mhi ? mhi : mx);
		break;
	}
	*m_out = m;
	*d_out = d;
}

static char *npa_repr_fixed(char *p, uint64_t frac, unsigned int bexp)
{
	unsigned int d, n;
	uint64_t m;

	npa_shortest_fixed(frac, bexp, &m, &d);
	n = npa_ndig64(m);
	if (!d) {
		npa_put_digits(p, m, n);
		memcpy(p + n, ".0", 3);
		return p + n + 2;
	}
	if (n > d) {
		npa_put_digits(p, m, n);
		memmove(p + n - d + 1, p + n - d, d);
		p[n - d] = '.';
		p[n + 1] = '\0';
		return p + n + 1;
	}
	p[0] = '0';
	p[1] = '.';
	memset(p + 2, '0', d - n);
	npa_put_digits(p + 2 + d - n, m, n);
	p[2 + d] = '\0';
	return p + 2 + d;
}

/* @dig (n digits) * 10^(exp10 - n + 1) as a double, without a locale's decimal point */
static double npa_read_digits(const char *dig, int n, int exp10)
{
	char buf[40];

	memcpy(buf, dig, (size_t)n);
	snprintf(buf + n, sizeof(buf) - (size_t)n, "e%d", exp10 - n + 1);
	return strtod(buf, NULL);
}

/* the n digits and exponent of snprintf("%.*e", n - 1, x), x > 0 */
static int npa_fmt_e(char *dig, int n, double x)
{
	char buf[48];
	const char *s;
	int i = 0;

	snprintf(buf, sizeof(buf), "%.*e", n - 1, x);
	/* the digits, skipping the locale's decimal point */
	for (s = buf; *s != 'e'; s++)
		if (*s >= '0' && *s <= '9')
			dig[i++] = *s;
	return atoi(s + 1);
}

/*
 * The shortest digits of a positive finite x outside the fixed range,
 * from glibc's correctly rounded %e (ties to even, as dtoa). Of the
 * n-digit decimals only the nearest can read back as x when x's rounding
 * interval is symmetric; at
 * a power of two it is narrower below, and the decimal above x can read
 * back where the nearest (below) does not. Normal doubles have an
 * interval narrower than the spacing of 15-digit decimals, so when the
 * nearest 15 digits read back, trimmed of zeros they are the shortest;
 * subnormals are tried from 1 digit up.
 */
static int npa_shortest_slow(char *dig, int *exp10, double x)
{
	uint64_t b = npa_bits(x);
	bool normal = (b >> 52) != 0;
	bool pow2 = normal && (b >> 52) > 1 && !(b & NPA_MANT_MASK);
	int n, e, i;

	for (n = normal ? 15 : 1; n <= 17; n++) {
		double y;

		e = npa_fmt_e(dig, n, x);
		y = npa_read_digits(dig, n, e);
		if (y == x)
			goto found;
		if (!pow2 || y > x)
			continue;
		/* the decimal above */
		for (i = n - 1; i >= 0 && dig[i] == '9'; i--)
			dig[i] = '0';
		if (i < 0) {
			dig[0] = '1';
			e++;
		} else {
			dig[i]++;
		}
		if (npa_read_digits(dig, n, e) == x)
			goto found;
	}
	/* not reached: 17 digits always read back */
	n = 17;
	e = npa_fmt_e(dig, n, x);
found:
	while (n > 1 && dig[n - 1] == '0')
		n--;
	*exp10 = e;
	return n;
}

/*
 * The shortest digits of a positive double 1e16 <= x < 2^64 (device
 * nanoseconds, say): x is an integer and so are its midpoints (ulp >= 2;
 * the first power of two in the range, 2^54, has a quarter-ulp of 1), and
 * the digits are m * 10^j for the largest j with a multiple of 10^j in
 * x's interval, m the one nearest x. Such an m never ends in 0 (j would
 * not be the largest). No x here is halfway between two candidates: that
 * needs 10^j <= ulp, and (2m + 1) * 5^j * 2^(j - 1) is no multiple of an
 * ulp that large; nor has a power of two a shorter candidate below it.
 * Ties to even and the lopsided bound are kept all the same.
 */
static int npa_shortest_big(char *dig, int *exp10, uint64_t frac, unsigned int bexp)
{
	int sh = (int)bexp - 1075; /* x = M * 2^sh, sh >= 1 */
	uint64_t x = (frac | (1ULL << 52)) << sh;
	uint64_t hi = x + (1ULL << (sh - 1));
	uint64_t lo = x - (frac ? 1ULL << (sh - 1) : 1ULL << (sh - 2));
	bool incl = !(x >> sh & 1);
	uint64_t mlo = x, mhi = x, m, q, r;
	unsigned int j, n;

	for (j = 1; j < 20; j++) {
		uint64_t p = npa_p10[j];
		uint64_t l = lo / p + (incl ? lo % p != 0 : 1);
		uint64_t h = incl ? hi / p : (hi - 1) / p;

		if (l > h)
			break;
		mlo = l;
		mhi = h;
	}
	j--;
	q = x / npa_p10[j];
	r = x % npa_p10[j];
	m = q + (r > npa_p10[j] / 2 || (r == npa_p10[j] / 2 && (q & 1)));
	m = m < mlo ? mlo : m > mhi ? mhi : m;
	n = npa_ndig64(m);
	npa_put_digits(dig, m, n);
	*exp10 = (int)(n + j) - 1;
	return (int)n;
}

/* repr of a positive finite x outside [1e-4, 1e16): "1e-05", "1.5e+16" */
static char *npa_repr_exp(char *p, double x)
{
	uint64_t b = npa_bits(x);
	char dig[20];
	int e, n;

	if (x < 18446744073709551616.0 && x >= 1e16)
		n = npa_shortest_big(dig, &e, b & NPA_MANT_MASK, (unsigned int)(b >> 52));
	else
		n = npa_shortest_slow(dig, &e, x);
	*p++ = dig[0];
	if (n > 1) {
		*p++ = '.';
		memcpy(p, dig + 1, (size_t)(n - 1));
		p += n - 1;
	}
	*p++ = 'e';
	*p++ = e < 0 ? '-' : '+';
	if (e < 0)
		e = -e;
	if (e < 10)
		*p++ = '0';
	p = npa_put_u64(p, (uint64_t)e);
	*p = '\0';
	return p;
}

char *npa_py_repr(char *p, double v)
{
	uint64_t b = npa_bits(v);
	uint64_t frac = b & NPA_MANT_MASK;
	unsigned int bexp = (unsigned int)(b >> 52) & 0x7ff;
	double a;

	if (bexp == 0x7ff)
		return npa_put_str(p, frac ? "nan" : b >> 63 ? "-inf" : "inf");
	if (b >> 63)
		*p++ = '-';
	if (!bexp && !frac)
		return npa_put_str(p, "0.0");
	b &= ~(1ULL << 63);
	memcpy(&a, &b, sizeof(a));
	if (a >= 1e-4 && a < 1e16)
		return npa_repr_fixed(p, frac, bexp);
	return npa_repr_exp(p, a);
}

/* ---- Python's round(x, n) ---- */

/*
 * CPython rounds x's exact binary value to n decimals, ties to even
 * (dtoa mode 3), and reads the digits back with strtod. Here x * 10^n is
 * taken exactly as M * 10^n / 2^-E (below 2^127 for n <= 22) and rounded
 * to an integer r; r / 10^n is then one correctly rounded division of two
 * exact doubles, the double nearest the decimal, as strtod would give.
 * When r >= 2^53, x's ulp exceeds 10^-n, the rounded decimal is within
 * half an ulp of x, and x itself comes back.
 */
double npa_py_round(double x, int ndigits)
{
	uint64_t b = npa_bits(x);
	unsigned int bexp = (unsigned int)(b >> 52) & 0x7ff;
	uint64_t mant = b & NPA_MANT_MASK;
	npa_u128 t, r;
	unsigned int s;
	double y;

	if (ndigits < 0)
		ndigits = 0;
	/* inf, nan, and |x| >= 2^52, which has no fraction */
	if (bexp >= 1023 + 52)
		return x;
	if (ndigits > 22) {
		char buf[400];

		/* beyond 323 digits CPython returns x, as this would */
		if (ndigits > 323)
			return x;
		snprintf(buf, sizeof(buf), "%.*f", ndigits, x);
		return strtod(buf, NULL);
	}
	if (bexp)
		mant |= 1ULL << 52;
	s = bexp ? 1075 - bexp : 1074;
	t = (npa_u128)mant * npa_p10q(ndigits);
	if (s >= 128) {
		r = 0;
	} else {
		npa_u128 rem = t & (((npa_u128)1 << s) - 1);
		npa_u128 half = (npa_u128)1 << (s - 1);

		r = t >> s;
		r += rem > half || (rem == half && (r & 1));
	}
	if (r >> 53)
		return x;
	y = (double)(uint64_t)r / npa_p10d[ndigits];
	return b >> 63 ? -y : y;
}

/* ---- Decimal ---- */

#define NPA_DEC_PREC 28 /* the default context's precision */
#define NPA_DEC_KEEP 36 /* coefficient digits kept from a string */
#define NPA_DEC_EMAX 999999 /* the default context's Emax */

enum { NPA_DEC_FINITE, NPA_DEC_INF, NPA_DEC_NAN };

/**
 * struct npa_dec - a Decimal: (-1)^neg * c * 10^e
 * @c: the coefficient, below 10^37.
 * @e: the exponent.
 * @neg: the sign (zeros have one too).
 * @kind: enum NPA_DEC_FINITE etc.
 */
struct npa_dec {
	npa_u128 c;
	int e;
	bool neg;
	int kind;
};

static bool npa_ieq(const char *s, const char *lit)
{
	for (; *lit; s++, lit++)
		if ((*s | 0x20) != *lit)
			return false;
	return !*s;
}

/*
 * Decimal(s) for the strings str() gives of ints and floats ([-]digits
 * [.digits][e[+-]digits], inf, nan). Python keeps every digit; up to 36
 * are kept here and any further nonzero ones become a sticky 37th digit.
 * That rounds the same at 28 digits unless a subtraction cancels the
 * leading digits of two such operands; str() of an int or a float has at
 * most 20 digits.
 */
static bool npa_dec_parse(struct npa_dec *d, const char *s)
{
	bool point = false, any = false, sticky = false;
	int nd = 0;
	long x = 0;

	d->c = 0;
	d->e = 0;
	d->neg = false;
	d->kind = NPA_DEC_FINITE;
	if (*s == '-' || *s == '+')
		d->neg = *s++ == '-';
	if (npa_ieq(s, "inf") || npa_ieq(s, "infinity")) {
		d->kind = NPA_DEC_INF;
		return true;
	}
	if (npa_ieq(s, "nan")) {
		d->kind = NPA_DEC_NAN;
		return true;
	}
	for (;; s++) {
		if (*s == '.' && !point) {
			point = true;
			continue;
		}
		if (*s < '0' || *s > '9')
			break;
		any = true;
		if (point)
			d->e--;
		if (!nd && *s == '0')
			continue;
		if (nd < NPA_DEC_KEEP) {
			d->c = d->c * 10 + (unsigned int)(*s - '0');
			nd++;
		} else {
			d->e++;
			sticky |= *s != '0';
		}
	}
	if (!any)
		return false;
	if (*s == 'e' || *s == 'E') {
		bool eneg = false;

		s++;
		if (*s == '-' || *s == '+')
			eneg = *s++ == '-';
		if (*s < '0' || *s > '9')
			return false;
		for (; *s >= '0' && *s <= '9'; s++)
			if ((x = x * 10 + (*s - '0')) > 10 * NPA_DEC_EMAX)
				return false;
		if (eneg)
			x = -x;
	}
	if (*s)
		return false;
	if (sticky) {
		d->c = d->c * 10 + 1;
		d->e--;
	}
	x += d->e;
	if (x > NPA_DEC_EMAX || x < -NPA_DEC_EMAX)
		return false;
	d->e = (int)x;
	return true;
}

/*
 * Decimal(repr(@v)) without the string: what npa_dec_parse() makes of
 * npa_py_repr()'s fixed notation, "m.0" (m * 10 at exponent -1) or the
 * digits m at exponent -d. False outside that notation (the string path
 * then takes it).
 */
static bool npa_dec_of_double(struct npa_dec *x, double v)
{
	uint64_t b = npa_bits(v), frac = b & NPA_MANT_MASK, m;
	unsigned int bexp = (unsigned int)(b >> 52) & 0x7ff, d;
	double a = v < 0 ? -v : v;

	if (!bexp || bexp == 0x7ff || !(a >= 1e-4 && a < 1e16))
		return false;
	npa_shortest_fixed(frac, bexp, &m, &d);
	x->c = d ? m : (npa_u128)m * 10;
	x->e = d ? -(int)d : -1;
	x->neg = b >> 63;
	x->kind = NPA_DEC_FINITE;
	return true;
}

/* c / 10^k rounded half to even */
static npa_u128 npa_div_even(npa_u128 c, int k)
{
	npa_u128 p, q, r;

	if (k <= 0)
		return c;
	/* c < 2^128 < 10^39 / 2: nothing is left */
	if (k > 38)
		return 0;
	p = npa_p10q(k);
	q = c / p;
	r = c - q * p;
	return q + (r > p / 2 || (r == p / 2 && (q & 1)));
}

/* the context's rounding of an operation's exact result to 28 digits */
static void npa_dec_round(struct npa_dec *d)
{
	int n = npa_ndig128(d->c);

	if (n <= NPA_DEC_PREC)
		return;
	d->c = npa_div_even(d->c, n - NPA_DEC_PREC);
	d->e += n - NPA_DEC_PREC;
}

/*
 * @x's coefficient at exponent w, when x reaches below w + 1: its digits
 * at w + 1 and above, then a sticky digit at w, 1 if anything nonzero was
 * cut. Any rounding above w sees the same as with the exact value.
 */
static npa_u128 npa_dec_align(const struct npa_dec *x, int w)
{
	npa_u128 p, q;
	int k = w + 1 - x->e;

	if (k <= 0)
		return x->c * npa_p10q(x->e - w);
	if (k > 38)
		return x->c ? 1 : 0;
	p = npa_p10q(k);
	q = x->c / p;
	return q * 10 + (x->c != q * p);
}

/*
 * Decimal a + b (finite): the exact sum rounded to 28 digits. When the
 * operands' digits span more than 38 positions, the lower one is cut at
 * w, 37 positions under the larger one's first digit (top), into a sticky
 * digit (npa_dec_align()); the larger one, of at most 37 digits, is never
 * cut. With operands of up to 36 digits the cut one is below 10^(top - 1),
 * so the sum still leads at top or top - 1 and its 28-digit rounding
 * happens well above w, as for the exact sum. Each aligned coefficient
 * has at most 38 digits, and their sum stays below 2 * 10^38 < 2^128.
 */
static void npa_dec_add(struct npa_dec *r, const struct npa_dec *a, const struct npa_dec *b)
{
	npa_u128 ca, cb;
	int top, w, lo;

	lo = a->e < b->e ? a->e : b->e;
	if (!a->c || !b->c) {
		if (!a->c && !b->c) {
			r->c = 0;
			r->e = lo;
			/* -0 + -0 is -0, any other zero sum +0 (ROUND_HALF_EVEN) */
			r->neg = a->neg && b->neg;
			r->kind = NPA_DEC_FINITE;
			return;
		}
		*r = a->c ? *a : *b;
		npa_dec_round(r);
		return;
	}
	top = a->e + npa_ndig128(a->c) - 1;
	w = b->e + npa_ndig128(b->c) - 1;
	top = top > w ? top : w;
	w = top - 37;
	if (lo >= w) {
		ca = a->c * npa_p10q(a->e - lo);
		cb = b->c * npa_p10q(b->e - lo);
	} else {
		ca = npa_dec_align(a, w);
		cb = npa_dec_align(b, w);
		lo = w;
	}
	r->kind = NPA_DEC_FINITE;
	r->e = lo;
	if (a->neg == b->neg) {
		r->c = ca + cb;
		r->neg = a->neg;
	} else if (ca >= cb) {
		r->c = ca - cb;
		r->neg = a->neg && ca != cb;
	} else {
		r->c = cb - ca;
		r->neg = b->neg;
	}
	npa_dec_round(r);
}

/* str(d.quantize(Decimal('0.000'))), "nan" where quantize raises */
static char *npa_dec_put3(char *p, const struct npa_dec *d)
{
	npa_u128 c = d->c;
	unsigned int frac;

	if (d->kind != NPA_DEC_FINITE)
		return npa_put_str(p, "nan");
	if (d->e < -3) {
		c = npa_div_even(c, -3 - d->e);
	} else if (d->e > -3 && c) {
		if (npa_ndig128(c) + d->e + 3 > NPA_DEC_PREC)
			return npa_put_str(p, "nan");
		c *= npa_p10q(d->e + 3);
	}
	if (npa_ndig128(c) > NPA_DEC_PREC)
		return npa_put_str(p, "nan");
	if (d->neg)
		*p++ = '-';
	frac = (unsigned int)(c % 1000);
	p = npa_put_u128(p, c / 1000);
	p[0] = '.';
	p[1] = (char)('0' + frac / 100);
	memcpy(p + 2, npa_digits2 + 2 * (frac % 100), 2);
	p[4] = '\0';
	return p + 4;
}

/*
 * a NaN operand: quantize and str() pass it on as "NaN" (the first one's,
 * with its sign); infinities make quantize raise
 */
static char *npa_dec_put_special(char *p, const struct npa_dec *a, const struct npa_dec *b)
{
	if (a->kind == NPA_DEC_NAN || b->kind == NPA_DEC_NAN)
		return npa_put_str(p, (a->kind == NPA_DEC_NAN ? a->neg : b->neg) ? "-NaN" : "NaN");
	return npa_put_str(p, "nan");
}

/* str((v / 1000 + off).quantize(Decimal('0.000'))) of two finite decimals */
static char *npa_dec_local_time(char *p, struct npa_dec *v, const struct npa_dec *off)
{
	struct npa_dec sum;

	/* / 1000 is exact, but rounded to 28 digits like any result */
	v->e -= 3;
	npa_dec_round(v);
	npa_dec_add(&sum, v, off);
	return npa_dec_put3(p, &sum);
}

char *npa_py_local_time(char *p, const char *v_repr, const char *off_repr)
{
	struct npa_dec v, off;

	if (!npa_dec_parse(&v, v_repr) || !npa_dec_parse(&off, off_repr))
		return npa_put_str(p, "nan");
	if (v.kind || off.kind)
		return npa_dec_put_special(p, &v, &off);
	return npa_dec_local_time(p, &v, &off);
}

char *npa_py_local_time_d(char *p, double v_ns, double off_us)
{
	char v[NPA_PY_FMT_MAX], off[NPA_PY_FMT_MAX];
	struct npa_dec dv, doff;

	/* the hot path: the same decimals as the strings below give */
	if (npa_dec_of_double(&dv, v_ns) && npa_dec_of_double(&doff, off_us))
		return npa_dec_local_time(p, &dv, &doff);

	npa_py_repr(v, v_ns);
	npa_py_repr(off, off_us);
	return npa_py_local_time(p, v, off);
}

char *npa_py_local_time_i(char *p, int64_t v_ns, double off_us)
{
	char v[NPA_PY_FMT_MAX], off[NPA_PY_FMT_MAX], *e = v;

	if (v_ns < 0)
		*e++ = '-';
	*npa_put_u64(e, v_ns < 0 ? -(uint64_t)v_ns : (uint64_t)v_ns) = '\0';
	npa_py_repr(off, off_us);
	return npa_py_local_time(p, v, off);
}

char *npa_py_decimal_add3_d(char *p, double a, double b)
{
	char as[NPA_PY_FMT_MAX], bs[NPA_PY_FMT_MAX];
	struct npa_dec x, y, sum;

	if (npa_dec_of_double(&x, a) && npa_dec_of_double(&y, b)) {
		npa_dec_add(&sum, &x, &y);
		return npa_dec_put3(p, &sum);
	}
	npa_py_repr(as, a);
	npa_py_repr(bs, b);
	return npa_py_decimal_add3(p, as, bs);
}

char *npa_py_decimal_add3(char *p, const char *a, const char *b)
{
	struct npa_dec x, y, sum;

	if (!npa_dec_parse(&x, a) || !npa_dec_parse(&y, b))
		return npa_put_str(p, "nan");
	if (x.kind || y.kind)
		return npa_dec_put_special(p, &x, &y);
	npa_dec_add(&sum, &x, &y);
	return npa_dec_put3(p, &sum);
}

char *npa_py_decimal_diff_repr(char *p, const char *a, const char *b)
{
	struct npa_dec x, y, diff;
	char buf[64], *q = buf;

	if (!npa_dec_parse(&x, a) || !npa_dec_parse(&y, b))
		return npa_put_str(p, "nan");
	y.neg = !y.neg;
	if (x.kind == NPA_DEC_NAN || y.kind == NPA_DEC_NAN)
		return npa_put_str(p, "nan");
	if (x.kind == NPA_DEC_INF || y.kind == NPA_DEC_INF) {
		/* inf - inf raises */
		if (x.kind == y.kind && x.neg != y.neg)
			return npa_put_str(p, "nan");
		return npa_put_str(p, (x.kind == NPA_DEC_INF ? x.neg : y.neg) ? "-inf" : "inf");
	}
	npa_dec_add(&diff, &x, &y);
	/* float(Decimal) is float(str(Decimal)): strtod of the 28 digits */
	if (diff.neg)
		*q++ = '-';
	q = npa_put_u128(q, diff.c);
	snprintf(q, sizeof(buf) - (size_t)(q - buf), "e%d", diff.e);
	return npa_py_repr(p, strtod(buf, NULL));
}

/* the digits of a plain decimal: sign, integer part without leading zeros, fraction */
struct plain_dec {
	int neg;
	const char *ip, *fp;
	size_t ni, nf;
};

static void plain_dec(const char *s, struct plain_dec *d)
{
	d->neg = *s == '-';
	s += d->neg || *s == '+';
	while (*s == '0' && s[1] >= '0' && s[1] <= '9')
		s++;
	d->ip = s;
	d->ni = strspn(s, "0123456789");
	if (d->ni == 1 && *s == '0')
		d->ni = 0;
	s += strspn(s, "0123456789");
	d->fp = *s == '.' ? s + 1 : s;
	d->nf = strspn(d->fp, "0123456789");
	while (d->nf && d->fp[d->nf - 1] == '0')
		d->nf--;
}

/* |x| against |y| */
static int mag_cmp(const struct plain_dec *x, const struct plain_dec *y)
{
	int c;

	if (x->ni != y->ni)
		return x->ni < y->ni ? -1 : 1;
	c = memcmp(x->ip, y->ip, x->ni);
	if (c)
		return c < 0 ? -1 : 1;
	for (size_t i = 0; i < x->nf || i < y->nf; i++) {
		char a = i < x->nf ? x->fp[i] : '0', b = i < y->nf ? y->fp[i] : '0';

		if (a != b)
			return a < b ? -1 : 1;
	}
	return 0;
}

/*
 * @s without its exponent, as Decimal(@s) holds it: "1.5e+20" is
 * 150000000000000000000 (float reprs past 1e16 have one). @s itself when
 * it has none, is not a finite number, or has an exponent too large to
 * write out in @len.
 */
static const char *plain_of(const char *s, char *buf, size_t len)
{
	char digits[48], *q = buf;
	struct npa_dec d;
	long nd, point;

	if (!strpbrk(s, "eE") || !npa_dec_parse(&d, s) || d.kind != NPA_DEC_FINITE)
		return s;
	nd = npa_put_u128(digits, d.c) - digits;
	point = nd + d.e; /* the digits before the decimal point */
	if (point < -300 || point > 300 || (size_t)(labs(point) + nd + 4) > len)
		return s;
	if (d.neg)
		*q++ = '-';
	if (point <= 0) {
		q = npa_put_str(q, "0.");
		memset(q, '0', (size_t)-point);
		q += -point;
		memcpy(q, digits, (size_t)nd);
		q += nd;
	} else if (point >= nd) {
		memcpy(q, digits, (size_t)nd);
		memset(q + nd, '0', (size_t)(point - nd));
		q += point;
	} else {
		memcpy(q, digits, (size_t)point);
		q += point;
		*q++ = '.';
		memcpy(q, digits + point, (size_t)(nd - point));
		q += nd - point;
	}
	*q = 0;
	return buf;
}

int npa_py_decimal_cmp_float(const char *a, double b)
{
	char exact[400], expanded[400];
	struct plain_dec x, y;
	int zx, zy, c;

	a = plain_of(a, expanded, sizeof(expanded));

	/* the common case: a positive integral b (collectionTimeBegin), no printing */
	plain_dec(a, &x);
	if (!x.neg && b >= 0 && b < 9007199254740992.0 && b == (double)(uint64_t)b && x.ni <= 16) {
		uint64_t ia = 0, ib = (uint64_t)b;

		for (size_t i = 0; i < x.ni; i++)
			ia = ia * 10 + (uint64_t)(x.ip[i] - '0');
		if (ia != ib)
			return ia < ib ? -1 : 1;
		return x.nf ? 1 : 0;
	}
	/* glibc prints the exact binary value */
	snprintf(exact, sizeof(exact), "%.70f", b);
	plain_dec(a, &x);
	plain_dec(exact, &y);
	zx = !x.ni && !x.nf;
	zy = !y.ni && !y.nf;
	if (zx && zy)
		return 0;
	if (zx || zy || x.neg != y.neg)
		return zx ? (y.neg ? 1 : -1) : zy ? (x.neg ? -1 : 1) : (x.neg ? -1 : 1);
	c = mag_cmp(&x, &y);
	return x.neg ? -c : c;
}

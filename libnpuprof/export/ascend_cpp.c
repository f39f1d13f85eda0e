// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: what msprof's C++ path (msprof_analysis.so, the one
 * CANN runs for chips 5, 15 and 16) does differently from its pure-Python
 * path, where the two disagree in what they print (docs/output.md, "Which
 * msprof path"):
 *
 *  - device times. The C++ path turns a syscnt into ns through its
 *    decimal type HPFloat (time_utils.cpp GetTimeFromCnt), keeps it as a
 *    double in a SQLite table, reads it back through std::to_string() and
 *    HPFloat again, adds the local-time offset and truncates to whole ns
 *    (task_processor.cpp FormatData). Every printed time is those ns / 1000
 *    with three decimals (utils.cpp DivideByPowersOfTenWithPrecision).
 *  - numbers: DoubleToStr (%.3f, trailing zeros and point dropped) and
 *    std::to_string (%f).
 *
 * Each step is reproduced, so that the last printed digit is msprof's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/ascend.h"

__int128 npa_cpp_micro(double v)
{
	/* 1e18 ns, 31 years: beyond it (and for a NaN) a bound, not an overflow */
	const __int128 lim = (__int128)1000000000000000000ll * 1000000;
	char buf[400], *dot;
	__int128 r = 0;
	bool neg;

	if (!(fabs(v) < 1e18))
		return v < 0 ? -lim : lim;
	snprintf(buf, sizeof(buf), "%f", v);
	neg = buf[0] == '-';
	dot = strchr(buf, '.');
	for (const char *s = buf + neg; *s; s++)
		if (s != dot)
			r = r * 10 + (*s - '0');
	return neg ? -r : r;
}

/*
 * HPFloat::Double() of a value @v in thousandths: its digits from the
 * lowest non-zero one up, each times pow(10, place), summed in a double
 * (not the double nearest @v, at times)
 */
static double hp_double(__int128 v)
{
	bool neg = v < 0;
	double ans = 0;
	int place = -3;

	if (neg)
		v = -v;
	while (v && v % 10 == 0) {
		v /= 10;
		place++;
	}
	for (; v; v /= 10, place++)
		ans += (double)(int)(v % 10) * pow(10, place);
	return neg ? -ans : ans;
}

/* GetTimeFromSyscnt(): ns, as the double the C++ path stores */
static double cnt_ns(const struct npa_cpp_clock *c, uint64_t cnt)
{
	uint64_t diff = cnt >= c->dev_cnt ? cnt - c->dev_cnt : c->dev_cnt - cnt;
	/* the us as std::to_string() prints them, then << 3: ns in thousandths */
	__int128 res = npa_cpp_micro((double)diff / c->freq);
	__int128 mon = (__int128)c->host_mon * 1000;

	return hp_double(cnt >= c->dev_cnt ? mon + res : mon - res);
}

void npa_cpp_task_ns(const struct npa_cpp_clock *c, uint64_t start_cnt, uint64_t end_cnt,
		     struct npa_cpp_time *t)
{
	double s = cnt_ns(c, start_cnt), e = cnt_ns(c, end_cnt);
	__int128 s6, d6;

	t->start_d = s;
	t->dur_d = e - s; /* ascend_task_persistence.cpp: end - start */
	/* HPFloat(start) and + HPFloat(duration), each through std::to_string */
	s6 = npa_cpp_micro(t->start_d);
	d6 = npa_cpp_micro(t->dur_d);
	/* + startTimeNs - baseTimeNs, then Uint64(): the whole ns */
	t->start = s6 < 0 ? 0 : (uint64_t)(s6 / 1000000) + c->local;
	t->end = s6 + d6 < 0 ? 0 : (uint64_t)((s6 + d6) / 1000000) + c->local;
}

bool npa_cpp_before_start(const struct npa_cpp_clock *c, const struct npa_cpp_time *t)
{
	/* task_processor.cpp: timestamp + duration < startTimeNs, in doubles */
	return (double)t->start + t->dur_d < (double)c->begin_ns;
}

char *npa_cpp_us(char *p, uint64_t ns)
{
	p = npa_fmt_u64(p, ns / 1000);
	*p++ = '.';
	*p++ = (char)('0' + ns / 100 % 10);
	*p++ = (char)('0' + ns / 10 % 10);
	*p++ = (char)('0' + ns % 10);
	return p;
}

char *npa_cpp_fixed3(char *p, double v)
{
	char *e;

	e = p + sprintf(p, "%.3f", v);
	/* DoubleToStr: the trailing zeros go, and a point left alone */
	while (e > p && e[-1] == '0')
		e--;
	if (e > p && e[-1] == '.')
		e--;
	return e;
}

char *npa_cpp_to_string(char *p, double v)
{
	return p + sprintf(p, "%f", v);
}

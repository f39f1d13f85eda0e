// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: the one JSON string escaper, in the two dialects of msprof's
 * two writers.
 *
 * NPX_JSON_PY: msprof's Python writer, json.dumps (ensure_ascii=True) of
 * the text bytes.decode("utf-8", "replace") makes of our bytes: '"' and
 * '\\' escaped, \b \f \n \r \t, other controls and everything from DEL up as
 * \uXXXX (lowercase; a surrogate pair above the BMP), and each maximal
 * invalid part of the UTF-8 as one U+FFFD (an overlong NUL is two, a lone
 * surrogate three).
 *
 * NPX_JSON_RAPIDJSON: msprof's C++ path, rapidjson's Writer: '"', '\\' and
 * the controls only (\u00XX in uppercase where there is no short form);
 * every other byte as it is, DEL and UTF-8 included.
 */
#include "core/core.h"

/*
 * The next code point of @*u, or U+FFFD for an invalid part: the bytes
 * consumed are the longest prefix of a well-formed sequence (Unicode's
 * "maximal subpart", which Python's decoder follows), at least one.
 */
static uint32_t utf8_next(const unsigned char **pu)
{
	const unsigned char *u = *pu;
	unsigned int c = *u++, need, lo = 0x80, hi = 0xbf;
	uint32_t cp;

	if (c < 0x80) {
		*pu = u;
		return c;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		need = 1;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		need = 2;
		cp = c & 0x0f;
		lo = c == 0xe0 ? 0xa0 : 0x80; /* no overlong form */
		hi = c == 0xed ? 0x9f : 0xbf; /* no surrogate */
	} else if (c >= 0xf0 && c <= 0xf4) {
		need = 3;
		cp = c & 0x07;
		lo = c == 0xf0 ? 0x90 : 0x80;
		hi = c == 0xf4 ? 0x8f : 0xbf; /* nothing above U+10FFFF */
	} else {
		*pu = u;
		return 0xfffd;
	}
	for (; need; need--, lo = 0x80, hi = 0xbf) {
		if (*u < lo || *u > hi) { /* the NUL too: it ends the string */
			*pu = u;
			return 0xfffd;
		}
		cp = cp << 6 | (*u++ & 0x3f);
	}
	*pu = u;
	return cp;
}

/* \uXXXX with @hex's digits */
static char *u_escape(char *p, uint32_t c, const char *hex)
{
	*p++ = '\\';
	*p++ = 'u';
	*p++ = hex[c >> 12 & 15];
	*p++ = hex[c >> 8 & 15];
	*p++ = hex[c >> 4 & 15];
	*p++ = hex[c & 15];
	return p;
}

char *npx_json_escape(char *p, const char *s, enum npx_json_dialect dialect)
{
	const char *hex = dialect == NPX_JSON_PY ? "0123456789abcdef" : "0123456789ABCDEF";
	const unsigned char *u = (const unsigned char *)s;

	while (*u) {
		uint32_t c = dialect == NPX_JSON_PY ? utf8_next(&u) : *u++;

		switch (c) {
		case '"':
		case '\\':
			*p++ = '\\';
			*p++ = (char)c;
			continue;
		case '\b':
			p = npx_lit(p, "\\b");
			continue;
		case '\f':
			p = npx_lit(p, "\\f");
			continue;
		case '\n':
			p = npx_lit(p, "\\n");
			continue;
		case '\r':
			p = npx_lit(p, "\\r");
			continue;
		case '\t':
			p = npx_lit(p, "\\t");
			continue;
		}
		if ((c >= 0x20 && c < 0x7f) || (c >= 0x20 && dialect == NPX_JSON_RAPIDJSON)) {
			*p++ = (char)c;
		} else if (c >= 0x10000) {
			c -= 0x10000;
			p = u_escape(p, 0xd800 | c >> 10, hex);
			p = u_escape(p, 0xdc00 | (c & 0x3ff), hex);
		} else {
			p = u_escape(p, c, hex);
		}
	}
	*p = '\0';
	return p;
}

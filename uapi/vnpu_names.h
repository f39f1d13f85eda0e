/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The rule for the names a task carries (vnpu_task op_name and op_type):
 * well-formed UTF-8 (RFC 3629: no overlong form, no surrogate, nothing
 * above U+10FFFF) with no control character (C0, DEL, C1). Names go as
 * they are into CSV cells, JSON strings and trace lines: an operator
 * named in Chinese keeps its name, and no name can break a line.
 *
 * The driver enforces the rule at VNPU_IOC_SUBMIT; userspace that reads
 * names from files another tool wrote (libnpuprof's export) applies the
 * same code, here, as liburing keeps its ring helpers in its header.
 */
#ifndef _UAPI_VNPU_NAMES_H
#define _UAPI_VNPU_NAMES_H

#include <linux/types.h>

/*
 * vnpu_name_char() - the bytes of the character at @s, @avail bytes from
 * the end of the name, when the rule allows it; 0 when it does not (a
 * control character or a malformed sequence).
 */
static inline unsigned int vnpu_name_char(const __u8 *s, __u64 avail)
{
	static const __u32 min[] = { 0, 0x80, 0x800, 0x10000 };
	unsigned int more, i;
	__u32 c = s[0];

	if (c < 0x80)
		return c >= 0x20 && c != 0x7f;
	if ((c & 0xe0) == 0xc0) {
		more = 1;
		c &= 0x1f;
	} else if ((c & 0xf0) == 0xe0) {
		more = 2;
		c &= 0x0f;
	} else if ((c & 0xf8) == 0xf0) {
		more = 3;
		c &= 0x07;
	} else {
		return 0;
	}
	if (avail <= more)
		return 0;
	for (i = 1; i <= more; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min[more] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff) || c < 0xa0)
		return 0;
	return more + 1;
}

#endif /* _UAPI_VNPU_NAMES_H */

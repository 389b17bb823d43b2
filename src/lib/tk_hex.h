/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Strict hex and number parsing shared by both key types.
 * Kernel-free: builds unchanged in the kernel and in tests/host.
 */
#ifndef TK_HEX_H
#define TK_HEX_H

#include <linux/types.h>
#include <linux/errno.h>
#include <linux/kernel.h>

/*
 * The value of one hex digit (0-9, a-f, A-F), else -1. Inline, unlike the
 * kernel's hex_to_bin(): blobs of several thousand digits are checked and
 * decoded a digit at a time, and a call a digit was a tenth of an encrypted
 * key's load under KASAN.
 */
static inline int tk_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;		/* A-F to a-f; no other character becomes a-f */
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/*
 * Decode @srclen hex digits from @src into @dst. Refuses an odd count,
 * a non-hex digit and a result larger than @dstmax. Returns the number of
 * bytes written or a negative errno.
 */
static inline int tk_hex_decode(u8 *dst, size_t dstmax, const char *src,
				size_t srclen)
{
	size_t i;

	if (srclen % 2)
		return -EINVAL;
	if (srclen / 2 > dstmax)
		return -E2BIG;
	for (i = 0; i < srclen; i += 2) {
		int hi = tk_hex_digit(src[i]);
		int lo = tk_hex_digit(src[i + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		dst[i / 2] = (u8)((hi << 4) | lo);
	}
	return (int)(srclen / 2);
}

/*
 * Parse an unsigned 32-bit number: decimal when @base is 10, hex (with an
 * optional 0x prefix) when @base is 16. The whole string must be digits.
 */
static inline int tk_parse_u32(const char *s, unsigned int base, u32 *out)
{
	u64 v = 0;
	int d;

	if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		d = tk_hex_digit(*s);
		if (d < 0 || (unsigned int)d >= base)
			return -EINVAL;
		v = v * base + (unsigned int)d;
		if (v > 0xffffffffULL)
			return -ERANGE;
	}
	*out = (u32)v;
	return 0;
}

#endif /* TK_HEX_H */

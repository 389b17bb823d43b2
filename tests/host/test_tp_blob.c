// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of tools/tp_blob.c, trusted-policy's reading of TPMKey blobs:
 * the out-of-bounds read of `trusted-policy list` on a hostile PolicyPCR
 * body (issue 23, item 8) and its neighbours, names escaped on output,
 * the listing's format, and the rewriting that add and remove do. Blobs
 * are built here and held in exact-size heap buffers, so that ASan sees
 * any read past them. The signers' names take SHA-256 from a stand-in:
 * tools/trusted-policy-test.sh checks the real ones.
 */
#include "tk_test.h"
#include "tk2_fixtures.h"
#include "tk2_msg.h"
#include "tk2_signed.h"
#include "tp_blob.h"

static void fake_sha256(const u8 *p, u32 n, u8 *out)
{
	(void)p;
	(void)n;
	memset(out, 0xab, TP_SHA256_LEN);
}

/* What list says of an empty policyRef. */
#define NONE	"none (any key sealed to this signer accepts these approvals)"

/* A DER writer over a heap buffer. */
struct der {
	u8 b[4096];
	struct tk_cmd_buf w;
};

static struct der *der_new(void)
{
	struct der *d = calloc(1, sizeof(*d));

	tk_cmd_init(&d->w, d->b, sizeof(d->b));
	return d;
}

/* Append @from's contents to @to as one element @tag; free @from. */
static void der_wrap(struct der *to, u8 tag, struct der *from)
{
	tk_der_put(&to->w, tag, from->b, from->w.len);
	free(from);
}

/* A TPMPolicy { [0] INTEGER code, [1] OCTET STRING body } onto @cmds. */
static void add_cmd(struct der *cmds, u32 code, const void *body, u32 len)
{
	struct der *p = der_new(), *c = der_new(), *b = der_new();

	tk_der_put_u32(&c->w, code);
	der_wrap(p, TP_CTX(0), c);
	tk_der_put(&b->w, TK_DER_OCTET_STRING, body, len);
	der_wrap(p, TP_CTX(1), b);
	der_wrap(cmds, TK_DER_SEQUENCE, p);
}

/* A TPMAuthPolicy { [0] name (NULL: none), [1] @cmds } onto @auth. */
static void add_entry(struct der *auth, const char *name, u32 name_len,
		      struct der *cmds)
{
	struct der *e = der_new(), *f = der_new(), *n;

	if (name) {
		n = der_new();
		tk_der_put(&n->w, TK_DER_UTF8STRING, name, name_len);
		der_wrap(e, TP_CTX(0), n);
	}
	der_wrap(f, TK_DER_SEQUENCE, cmds);
	der_wrap(e, TP_CTX(1), f);
	der_wrap(auth, TK_DER_SEQUENCE, e);
}

/*
 * A TPMKey: type, [0] emptyAuth, @extra more [0] fields, [1] @pol (the
 * TPMPolicy entries; NULL: none), [3] @auth (NULL: none), parent, pubkey,
 * privkey; in an exact-size heap buffer.
 */
static u8 *mk_key_pol(struct der *pol, struct der *auth, unsigned int extra,
		      u32 *len)
{
	static const u8 oid[] = { 0x67, 0x81, 0x05, 0x0a, 0x01, 0x05 };
	static const u8 t = 0xff, pub[2], priv[6];
	struct der *k = der_new(), *f;
	unsigned int i;
	u8 *out;

	tk_der_put(&k->w, TK_DER_OID, oid, sizeof(oid));
	for (i = 0; i <= extra; i++) {
		f = der_new();
		tk_der_put(&f->w, TK_DER_BOOLEAN, &t, 1);
		der_wrap(k, TP_CTX(0), f);
	}
	if (pol) {
		f = der_new();
		der_wrap(f, TK_DER_SEQUENCE, pol);
		der_wrap(k, TP_CTX(1), f);
	}
	if (auth) {
		f = der_new();
		der_wrap(f, TK_DER_SEQUENCE, auth);
		der_wrap(k, TP_CTX(3), f);
	}
	tk_der_put_u32(&k->w, 0x81000001);
	tk_der_put(&k->w, TK_DER_OCTET_STRING, pub, sizeof(pub));
	tk_der_put(&k->w, TK_DER_OCTET_STRING, priv, sizeof(priv));
	f = der_new();
	der_wrap(f, TK_DER_SEQUENCE, k);
	CHECK(!f->w.bad);
	out = tk_dup(f->b, f->w.len);
	*len = f->w.len;
	free(f);
	return out;
}

static u8 *mk_key(struct der *auth, unsigned int extra, u32 *len)
{
	return mk_key_pol(NULL, auth, extra, len);
}

/* A key of one signed policy, @name, with the one command @code(@body). */
static u8 *mk_key1(const char *name, u32 name_len, u32 code, const void *body,
		   u32 body_len, u32 *len)
{
	struct der *auth = der_new(), *cmds = der_new();

	add_cmd(cmds, code, body, body_len);
	add_entry(auth, name, name_len, cmds);
	return mk_key(auth, 0, len);
}

/* tp_list() of @blob into a string (freed by the caller); its return in @ret. */
static char *list(const u8 *blob, u32 len, int *ret, const char **why)
{
	struct tp_key k;
	char *text = NULL;
	size_t n = 0;
	FILE *f;

	*why = NULL;
	*ret = tp_key_parse(blob, len, &k, why);
	if (*ret)
		return strdup("");
	f = open_memstream(&text, &n);
	*ret = tp_list(&k, f, fake_sha256, why);
	fclose(f);
	return text;
}

/* pcrDigest (SHA-256, zeros) || one selection: sha256, PCRs 7 and 16 */
static const u8 pcr_body[2 + 32 + 10] = {
	[1] = 32,
	[2 + 32 + 3] = 1,				/* count */
	[2 + 32 + 5] = 0x0b,				/* sha256 */
	[2 + 32 + 6] = 3, [2 + 32 + 7] = 0x80, [2 + 32 + 9] = 0x01,
};

/*
 * The bug: the selection was found at 2 + (pcrDigest's size field) with no
 * bound, and read there; a size of 0xffff read 64 KiB past the body (ASan
 * SEGV). Now the size is bounded by the body and the listing refused.
 */
static void test_policy_pcr_oob(void)
{
	static const u32 sizes[] = { 0xffff, 0x8000, 0x0100, 33, 42, 43 };
	u8 body[sizeof(pcr_body)];
	const char *why;
	unsigned int i;
	char *out;
	u8 *blob;
	u32 len;
	int ret;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		memcpy(body, pcr_body, sizeof(body));
		put_unaligned_be16(sizes[i], body);
		blob = mk_key1("evil", 4, TK2_CC_POLICY_PCR, body, sizeof(body), &len);
		out = list(blob, len, &ret, &why);
		CHECK_EQ(ret, -EINVAL);
		CHECK_STR(why, "malformed PolicyPCR body");
		free(out);
		free(blob);
	}

	/* the same body, well-formed */
	blob = mk_key1("ok", 2, TK2_CC_POLICY_PCR, pcr_body, sizeof(pcr_body), &len);
	out = list(blob, len, &ret, &why);
	CHECK_EQ(ret, 0);
	CHECK_STR(out, "0 ok PolicyPCR(sha256:7,16)\n");
	free(out);
	free(blob);

	/* every truncation of it, and one byte more */
	for (i = 0; i <= sizeof(pcr_body); i++) {
		u8 longer[sizeof(pcr_body) + 1] = { 0 };

		memcpy(longer, pcr_body, sizeof(pcr_body));
		blob = mk_key1("t", 1, TK2_CC_POLICY_PCR, longer,
			       i < sizeof(pcr_body) ? i : sizeof(longer), &len);
		out = list(blob, len, &ret, &why);
		if (!CHECK(ret == -EINVAL))
			printf("     body of %u bytes: %d\n", i, ret);
		free(out);
		free(blob);
	}
}

/* The other fields of a PolicyPCR body out of range. */
static void test_policy_pcr_fields(void)
{
	struct {
		unsigned int at;
		u8 v;
		int ret;
		const char *out;
	} cases[] = {
		{ 2 + 32 + 0, 0xff, -EINVAL, NULL },	/* count 0xff000001 */
		{ 2 + 32 + 3, 0, -EINVAL, NULL },	/* count 0 */
		{ 2 + 32 + 3, 9, -EINVAL, NULL },	/* more than 8 */
		{ 2 + 32 + 3, 2, -EINVAL, NULL },	/* a second one absent */
		{ 2 + 32 + 6, 0xff, -EINVAL, NULL },	/* sizeofSelect 255 */
		{ 2 + 32 + 6, 5, -EINVAL, NULL },	/* 5 */
		{ 2 + 32 + 6, 4, -EINVAL, NULL },	/* 4: one byte short */
		{ 2 + 32 + 6, 2, -EINVAL, NULL },	/* 2: one byte over */
		{ 2 + 32 + 5, 0x04, 0, "0 x PolicyPCR(sha1:7,16)\n" },
		{ 2 + 32 + 5, 0x99, 0, "0 x PolicyPCR(0x0099:7,16)\n" },
		{ 2 + 32 + 7, 0, 0, "0 x PolicyPCR(sha256:16)\n" },
	};
	u8 body[sizeof(pcr_body)];
	const char *why;
	unsigned int i;
	char *out;
	u8 *blob;
	u32 len;
	int ret;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		memcpy(body, pcr_body, sizeof(body));
		body[cases[i].at] = cases[i].v;
		blob = mk_key1("x", 1, TK2_CC_POLICY_PCR, body, sizeof(body), &len);
		out = list(blob, len, &ret, &why);
		if (!CHECK(ret == cases[i].ret))
			printf("     case %u: %d\n", i, ret);
		if (cases[i].out)
			CHECK_STR(out, cases[i].out);
		free(out);
		free(blob);
	}
}

/* Names from the blob reach the terminal escaped, as one word. */
static void test_list_escapes_names(void)
{
	static const struct {
		const char *name;
		u32 len;
		const char *out;
	} cases[] = {
		{ "a\x1b[2Jb\nc\rd\x7f", 11, "0 a\\x1b[2Jb\\x0ac\\x0dd\\x7f" },
		{ "\xc2\x9b[1m", 5, "0 \\xc2\\x9b[1m" },	/* C1 CSI in UTF-8 */
		{ "back\\slash two words", 20, "0 back\\\\slash\\x20two\\x20words" },
		{ "nul\0byte", 8, "0 nul\\x00byte" },
		{ "", 0, "0 \"\"" },
		{ "-", 1, "0 \\x2d" },
		{ NULL, 0, "0 -" },
		{ "boot-1", 6, "0 boot-1" },
	};
	const char *why;
	unsigned int i;
	char want[128], *out;
	u8 *blob;
	u32 len;
	int ret;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		blob = mk_key1(cases[i].name, cases[i].len, TK2_CC_POLICY_AUTH_VALUE,
			       "", 0, &len);
		out = list(blob, len, &ret, &why);
		CHECK_EQ(ret, 0);
		snprintf(want, sizeof(want), "%s PolicyAuthValue\n", cases[i].out);
		CHECK_STR(out, want);
		free(out);
		free(blob);
	}
}

/* Every byte value: printable output, and the escapes decode back. */
static void test_print_escaped_all_bytes(void)
{
	u8 in[256], back[256];
	char *text = NULL;
	size_t n = 0, i, j = 0;
	FILE *f = open_memstream(&text, &n);
	bool printable = true;
	unsigned int v;

	for (i = 0; i < 256; i++)
		in[i] = i;
	tp_print_escaped(f, in, sizeof(in));
	fclose(f);
	for (i = 0; i < n; i++)
		printable &= text[i] > ' ' && text[i] <= '~';
	CHECK(printable);
	for (i = 0; i < n && j < sizeof(back); j++) {
		if (text[i] != '\\') {
			back[j] = text[i++];
		} else if (text[i + 1] == '\\') {
			back[j] = '\\';
			i += 2;
		} else if (sscanf(text + i, "\\x%2x", &v) == 1) {
			back[j] = v;
			i += 4;
		} else {
			break;
		}
	}
	CHECK_EQ(i, n);
	CHECK_EQ(j, sizeof(in));
	CHECK_MEM(back, in, sizeof(in));
	free(text);
}

/* A keySign TPMT_PUBLIC's first bytes: type ECC, nameAlg @alg. */
static u32 authorize_body(u8 *b, u16 alg, u16 size_field, u32 pub_len)
{
	memset(b, 0, 2 + pub_len + 4);
	put_unaligned_be16(size_field, b);
	put_unaligned_be16(TK2_ALG_ECC, b + 2);
	put_unaligned_be16(alg, b + 4);
	put_unaligned_be16(0x0010, b + 2 + pub_len + 2);	/* sigAlg NULL */
	return 2 + pub_len + 4;
}

/* The whole format: several entries and commands, banks, signers. */
static void test_list_format(void)
{
	static const u8 two_banks[] = {
		0x00, 0x00,				/* pcrDigest empty */
		0x00, 0x00, 0x00, 0x02,
		0x00, 0x04, 0x03, 0x01, 0x00, 0x00,	/* sha1:0 */
		0x00, 0x0d, 0x04, 0x00, 0x00, 0x80, 0x80, /* sha512:23,31 */
	};
	struct der *auth = der_new(), *cmds = der_new();
	static const char line0[] =
		"0 boot-2 PolicyPCR(sha256:7,16) PolicyAuthorize(signer 000b";
	static const char line1[] =
		"1 - PolicyPCR(sha1:0+sha512:23,31) PolicyAuthorize(signer nameAlg 0x0004) policyRef: " NONE;
	char ab_hex[2 * TP_SHA256_LEN + 1], want[512];
	u8 ab[128], ab1[128];
	u32 n = authorize_body(ab, TK2_ALG_SHA256, 88, 88), n1, len, i;
	const char *why;
	char *out;
	u8 *blob;
	int ret;

	n1 = authorize_body(ab1, TK2_ALG_SHA1, 88, 88);
	add_cmd(cmds, TK2_CC_POLICY_PCR, pcr_body, sizeof(pcr_body));
	add_cmd(cmds, 0x16a, ab, n);
	add_entry(auth, "boot-2", 6, cmds);
	cmds = der_new();
	add_cmd(cmds, TK2_CC_POLICY_PCR, two_banks, sizeof(two_banks));
	add_cmd(cmds, 0x16a, ab1, n1);
	add_cmd(cmds, TK2_CC_POLICY_AUTH_VALUE, "", 0);
	add_cmd(cmds, 0x123, "x", 1);
	add_entry(auth, NULL, 0, cmds);
	blob = mk_key(auth, 0, &len);
	out = list(blob, len, &ret, &why);
	CHECK_EQ(ret, 0);
	for (i = 0; i < TP_SHA256_LEN; i++)
		memcpy(ab_hex + 2 * i, "ab", 3);
	snprintf(want, sizeof(want), "%s%s) policyRef: %s\n%s%s\n", line0, ab_hex,
		 NONE, line1, " PolicyAuthValue 0x123");
	CHECK_STR(out, want);
	free(out);
	free(blob);

	/* keySign's size past the body; keySign too short to have a nameAlg */
	n = authorize_body(ab, TK2_ALG_SHA256, 93, 88);
	blob = mk_key1("a", 1, 0x16a, ab, n, &len);
	out = list(blob, len, &ret, &why);
	CHECK_EQ(ret, -EINVAL);
	CHECK_STR(why, "malformed PolicyAuthorize body");
	free(out);
	free(blob);
	n = authorize_body(ab, TK2_ALG_SHA256, 0xffff, 88);
	blob = mk_key1("a", 1, 0x16a, ab, n, &len);
	out = list(blob, len, &ret, &why);
	CHECK_EQ(ret, -EINVAL);
	free(out);
	free(blob);
	blob = mk_key1("a", 1, 0x16a, (const u8 *)"\x00\x03\x00\x23\x00", 5, &len);
	out = list(blob, len, &ret, &why);
	CHECK_EQ(ret, -EINVAL);
	free(out);
	free(blob);
}

/*
 * A PolicyAuthorize body: keySign (type ECC, nameAlg SHA-256, @pub_len
 * bytes), policyRef @ref (@ref_len bytes, the size field @ref_size),
 * sigAlg NULL.
 */
static u32 ref_body(u8 *b, const void *ref, u32 ref_len, u16 ref_size)
{
	const u32 pub_len = 88;

	memset(b, 0, 2 + pub_len + 2 + ref_len + 2);
	put_unaligned_be16(pub_len, b);
	put_unaligned_be16(TK2_ALG_ECC, b + 2);
	put_unaligned_be16(TK2_ALG_SHA256, b + 4);
	put_unaligned_be16(ref_size, b + 2 + pub_len);
	memcpy(b + 2 + pub_len + 2, ref, ref_len);
	put_unaligned_be16(0x0010, b + 2 + pub_len + 2 + ref_len);
	return 2 + pub_len + 2 + ref_len + 2;
}

/* A key's policy [1]: PolicyAuthorize(@ref), then PolicyAuthValue. */
static struct der *key_pol(const void *ref, u32 ref_len)
{
	struct der *pol = der_new();
	u8 b[256];
	u32 n = ref_body(b, ref, ref_len, ref_len);

	add_cmd(pol, 0x16a, b, n);
	add_cmd(pol, TK2_CC_POLICY_AUTH_VALUE, "", 0);
	return pol;
}

/* One signed policy per policyRef of @refs (NULL: empty), named e0, e1... */
static struct der *ref_entries(const char *const *refs, unsigned int n)
{
	struct der *auth = der_new(), *cmds;
	unsigned int i;
	char name[16];
	u8 b[256];
	u32 len;

	for (i = 0; i < n; i++) {
		u32 rl = refs[i] ? strlen(refs[i]) : 0;

		cmds = der_new();
		add_cmd(cmds, TK2_CC_POLICY_PCR, pcr_body, sizeof(pcr_body));
		len = ref_body(b, refs[i] ? refs[i] : "", rl, rl);
		add_cmd(cmds, 0x16a, b, len);
		snprintf(name, sizeof(name), "e%u", i);
		add_entry(auth, name, strlen(name), cmds);
	}
	return auth;
}

#define SIGNER	"PolicyPCR(sha256:7,16) PolicyAuthorize(signer 000b" \
		"abababababababababababababababababababababababababababababababab) "

/*
 * issue 22 item 5: list shows each signed policy's policyRef, in hex (a
 * hostile one as well), "none" and what it means when empty, and says
 * when load will skip one because the key's policy [1] names another.
 */
static void test_list_policy_ref(void)
{
	static const char *const refs[] = { "kmk-a", "kmk-b", NULL, "\x1b[2J\n" };
	static const char with_a[] =
		"0 e0 " SIGNER "policyRef: 6b6d6b2d61\n"
		"1 e1 " SIGNER "policyRef: 6b6d6b2d62 [not the key's policyRef, 6b6d6b2d61: load skips it]\n"
		"2 e2 " SIGNER "policyRef: " NONE " [not the key's policyRef, 6b6d6b2d61: load skips it]\n"
		"3 e3 " SIGNER "policyRef: 1b5b324a0a [not the key's policyRef, 6b6d6b2d61: load skips it]\n";
	static const char with_none[] =
		"0 e0 " SIGNER "policyRef: 6b6d6b2d61 [not the key's policyRef, none: load skips it]\n"
		"1 e1 " SIGNER "policyRef: 6b6d6b2d62 [not the key's policyRef, none: load skips it]\n"
		"2 e2 " SIGNER "policyRef: " NONE "\n"
		"3 e3 " SIGNER "policyRef: 1b5b324a0a [not the key's policyRef, none: load skips it]\n";
	static const char no_pol[] =
		"0 e0 " SIGNER "policyRef: 6b6d6b2d61\n"
		"1 e1 " SIGNER "policyRef: 6b6d6b2d62\n"
		"2 e2 " SIGNER "policyRef: " NONE "\n"
		"3 e3 " SIGNER "policyRef: 1b5b324a0a\n";
	const char *why;
	char *out;
	u8 *blob;
	u32 len;
	int ret;

	blob = mk_key_pol(key_pol("kmk-a", 5), ref_entries(refs, 4), 0, &len);
	out = list(blob, len, &ret, &why);
	CHECK_EQ(ret, 0);
	CHECK_STR(out, with_a);
	free(out);
	free(blob);

	blob = mk_key_pol(key_pol("", 0), ref_entries(refs, 4), 0, &len);
	out = list(blob, len, &ret, &why);
	CHECK_EQ(ret, 0);
	CHECK_STR(out, with_none);
	free(out);
	free(blob);

	blob = mk_key(ref_entries(refs, 4), 0, &len);
	out = list(blob, len, &ret, &why);
	CHECK_EQ(ret, 0);
	CHECK_STR(out, no_pol);
	free(out);
	free(blob);

	/* a malformed [1]: the entries listed, nothing compared */
	{
		struct der *pol = der_new();

		add_cmd(pol, 0x16a, "\x00", 1);
		blob = mk_key_pol(pol, ref_entries(refs, 1), 0, &len);
		out = list(blob, len, &ret, &why);
		CHECK_EQ(ret, 0);
		CHECK_STR(out, "0 e0 " SIGNER "policyRef: 6b6d6b2d61\n");
		free(out);
		free(blob);
	}
}

/* policyRef sizes: up to 64 bytes listed; more, or past the body, refused. */
static void test_list_policy_ref_sizes(void)
{
	static const struct {
		u32 len;
		u16 size;
		int ret;
	} cases[] = {
		{ 1, 1, 0 }, { 64, 64, 0 }, { 65, 65, -EINVAL },
		{ 2, 0xffff, -EINVAL }, { 2, 5, -EINVAL },
		{ 2, 1, 0 },	/* what follows the policyRef is the TPM's to read */
	};
	u8 ref[65], b[256];
	char want[512], *p;
	const char *why;
	unsigned int i, j;
	char *out;
	u8 *blob;
	u32 len, n;
	int ret;

	for (i = 0; i < sizeof(ref); i++)
		ref[i] = 0xc0 + i;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		n = ref_body(b, ref, cases[i].len, cases[i].size);
		blob = mk_key1("r", 1, 0x16a, b, n, &len);
		out = list(blob, len, &ret, &why);
		if (cases[i].ret) {
			CHECK_EQ(ret, cases[i].ret);
			CHECK_STR(why, "malformed PolicyAuthorize body");
		} else if (cases[i].size == cases[i].len) {
			CHECK_EQ(ret, 0);
			p = want + sprintf(want, "0 r PolicyAuthorize(signer 000b");
			for (j = 0; j < TP_SHA256_LEN; j++)
				p += sprintf(p, "ab");
			p += sprintf(p, ") policyRef: ");
			for (j = 0; j < cases[i].len; j++)
				p += sprintf(p, "%02x", ref[j]);
			sprintf(p, "\n");
			CHECK_STR(out, want);
		} else {
			CHECK_EQ(ret, 0);
		}
		free(out);
		free(blob);
	}
}

/*
 * tp_key_policy_ref(), which add uses to refuse an approval for another
 * policyRef: [1]'s first PolicyAuthorize, its policyRef inside the blob;
 * the same one src/lib's reader (the kernel's, tk2_authorize_body_parse())
 * finds.
 */
static void test_key_policy_ref(void)
{
	struct tk2_authorize_body ab;
	struct tp_key k;
	const char *why;
	const u8 *ref;
	struct der *pol;
	u32 len, rl, n, i;
	u8 *blob, b[256];
	unsigned int bad = 0;

	blob = mk_key(NULL, 0, &len);
	CHECK_EQ(tp_key_parse(blob, len, &k, &why), 0);
	CHECK_EQ(tp_key_policy_ref(&k, &ref, &rl, &why), -ENOENT);
	free(blob);

	blob = mk_key_pol(key_pol("kmk-a", 5), NULL, 0, &len);
	CHECK_EQ(tp_key_parse(blob, len, &k, &why), 0);
	CHECK_EQ(tp_key_policy_ref(&k, &ref, &rl, &why), 0);
	CHECK_EQ(rl, 5);
	CHECK(ref > blob && ref + rl <= blob + len);
	CHECK_MEM(ref, "kmk-a", 5);
	free(blob);

	blob = mk_key_pol(key_pol("", 0), NULL, 0, &len);
	CHECK_EQ(tp_key_parse(blob, len, &k, &why), 0);
	CHECK_EQ(tp_key_policy_ref(&k, &ref, &rl, &why), 0);
	CHECK_EQ(rl, 0);
	free(blob);

	/* the kernel's reader of the body agrees */
	n = ref_body(b, "kmk-a", 5, 5);
	CHECK_EQ(tk2_authorize_body_parse(b, n, &ab), 0);
	CHECK_EQ(ab.policy_ref.len, 5);
	CHECK_MEM(ab.policy_ref.p, "kmk-a", 5);

	/* [1] starting with another command; a body too short */
	pol = der_new();
	add_cmd(pol, TK2_CC_POLICY_PCR, pcr_body, sizeof(pcr_body));
	blob = mk_key_pol(pol, NULL, 0, &len);
	CHECK_EQ(tp_key_parse(blob, len, &k, &why), 0);
	CHECK_EQ(tp_key_policy_ref(&k, &ref, &rl, &why), -EINVAL);
	CHECK_STR(why, "the policy field does not start with a PolicyAuthorize");
	free(blob);
	for (i = 0; i < n; i++) {
		pol = der_new();
		add_cmd(pol, 0x16a, b, i);
		blob = mk_key_pol(pol, NULL, 0, &len);
		CHECK_EQ(tp_key_parse(blob, len, &k, &why), 0);
		/* the signature after the policyRef is not read here */
		if (i < n - 2)
			bad += tp_key_policy_ref(&k, &ref, &rl, &why) != -EINVAL;
		free(blob);
	}
	CHECK_EQ(bad, 0);

	/* [1] as something else than a SEQUENCE of TPMPolicy */
	pol = der_new();
	tk_der_put_u32(&pol->w, 1);
	blob = mk_key_pol(pol, NULL, 0, &len);
	CHECK_EQ(tp_key_parse(blob, len, &k, &why), 0);
	CHECK_EQ(tp_key_policy_ref(&k, &ref, &rl, &why), -EINVAL);
	CHECK_STR(why, "malformed policy field");
	free(blob);
}

/* DER around the commands: what tp_entries() and list refuse. */
static void test_list_malformed_der(void)
{
	struct der *auth, *cmds, *p;
	const char *why;
	char *out;
	u8 *blob;
	u32 len;
	int ret;

	/* a TPMPolicy of an INTEGER alone */
	auth = der_new();
	cmds = der_new();
	p = der_new();
	tk_der_put_u32(&p->w, 1);
	der_wrap(cmds, TK_DER_SEQUENCE, p);
	add_entry(auth, "x", 1, cmds);
	blob = mk_key(auth, 0, &len);
	out = list(blob, len, &ret, &why);
	CHECK_EQ(ret, -EINVAL);
	CHECK_STR(why, "malformed TPMPolicy");
	free(out);
	free(blob);

	/* a name that is not a UTF8String */
	auth = der_new();
	p = der_new();
	tk_der_put(&p->w, TK_DER_OCTET_STRING, "x", 1);
	cmds = der_new();
	der_wrap(cmds, TP_CTX(0), p);
	p = der_new();
	der_wrap(p, TK_DER_SEQUENCE, der_new());
	der_wrap(cmds, TP_CTX(1), p);
	der_wrap(auth, TK_DER_SEQUENCE, cmds);
	blob = mk_key(auth, 0, &len);
	out = list(blob, len, &ret, &why);
	CHECK_EQ(ret, -EINVAL);
	CHECK_STR(why, "malformed TPMAuthPolicy name");
	free(out);
	free(blob);
}

/* Every truncation of a key is refused, inside the buffer. */
static void test_key_truncated(void)
{
	struct der *auth = der_new(), *cmds = der_new();
	unsigned int bad = 0;
	struct tp_key k;
	const char *why;
	u32 len, i;
	u8 *blob, *t;

	add_cmd(cmds, TK2_CC_POLICY_PCR, pcr_body, sizeof(pcr_body));
	add_entry(auth, "n", 1, cmds);
	blob = mk_key(auth, 0, &len);
	CHECK_EQ(tp_key_parse(blob, len, &k, &why), 0);
	CHECK_EQ(k.n, 6);
	CHECK_EQ(k.auth_policy, 2);
	CHECK_EQ(k.policy, -1);
	CHECK_EQ(k.pub, 4);
	for (i = 0; i < len; i++) {
		t = tk_dup(blob, i);
		bad += tp_key_parse(t, i, &k, &why) != -EINVAL;
		free(t);
	}
	CHECK_EQ(bad, 0);
	free(blob);
}

/* Keys tp_key_parse() refuses, and a real one it reads. */
static void test_key_parse(void)
{
	static const u8 twice[] = {	/* type, [3] {}, [3] {}, ... */
		0x30, 0x18, 0x06, 0x01, 0x01, 0xa3, 0x02, 0x30, 0x00,
		0xa3, 0x02, 0x30, 0x00, 0x02, 0x05, 0x00, 0x81, 0x00,
		0x00, 0x01, 0x04, 0x00, 0x04, 0x02, 0x00, 0x00,
	};
	struct tp_entry ents[TP_ENTRIES_MAX];
	const u8 *policy;
	struct tp_key k;
	const char *why;
	unsigned int n;
	u8 *blob;
	u32 len;

	blob = tk_dup(twice, sizeof(twice));
	CHECK_EQ(tp_key_parse(blob, sizeof(twice), &k, &why), -EINVAL);
	CHECK_STR(why, "malformed TPMKey (a field twice)");
	free(blob);

	blob = mk_key(NULL, TP_ELEMS_MAX - 5, &len);	/* 12 fields */
	CHECK_EQ(tp_key_parse(blob, len, &k, &why), 0);
	free(blob);
	blob = mk_key(NULL, TP_ELEMS_MAX - 4, &len);	/* 13 */
	CHECK_EQ(tp_key_parse(blob, len, &k, &why), -EINVAL);
	free(blob);

	/* ours, pcrs=sha256:16: [1] policy, no [3] */
	blob = tk_unhex(ours_pcrs_hex, &len);
	CHECK_EQ(tp_key_parse(blob, len, &k, &why), 0);
	CHECK_EQ(k.policy, 2);
	CHECK_EQ(k.auth_policy, -1);
	CHECK_EQ(tp_entries(&k, ents, TP_ENTRIES_MAX, &n, &why), 0);
	CHECK_EQ(n, 0);
	CHECK_EQ(tp_key_auth_policy(&k, &policy, &why), 0);
	CHECK(policy > blob && policy + TP_SHA256_LEN <= blob + len);
	free(blob);
}

/* What add and remove write reads back; a key of 12 fields gets no [3]. */
static void test_rewrite(void)
{
	struct der *auth = der_new(), *cmds;
	struct tp_entry ents[TP_ENTRIES_MAX], e2[TP_ENTRIES_MAX];
	static u8 a[TP_BLOB_MAX], out[TP_BLOB_MAX];
	const u8 *raw[2];
	struct tp_key k, k2;
	const char *why;
	unsigned int n;
	u32 rl[2], len;
	int al, wl, ret;
	u8 *blob;
	char *txt;

	cmds = der_new();
	add_cmd(cmds, TK2_CC_POLICY_AUTH_VALUE, "", 0);
	add_entry(auth, "one", 3, cmds);
	cmds = der_new();
	add_cmd(cmds, TK2_CC_POLICY_PCR, pcr_body, sizeof(pcr_body));
	add_entry(auth, "two", 3, cmds);
	blob = mk_key(auth, 0, &len);
	CHECK_EQ(tp_key_parse(blob, len, &k, &why), 0);
	CHECK_EQ(tp_entries(&k, ents, TP_ENTRIES_MAX, &n, &why), 0);
	CHECK_EQ(n, 2);

	/* remove "one" */
	raw[0] = ents[1].raw;
	rl[0] = ents[1].raw_len;
	al = tp_auth_field(raw, rl, 1, a, sizeof(a), &why);
	CHECK(al > 0);
	wl = tp_key_write(&k, NULL, 0, a, al, out, sizeof(out), &why);
	CHECK(wl > 0 && wl < (int)len);
	CHECK_EQ(tp_key_parse(out, wl, &k2, &why), 0);
	CHECK_EQ(tp_entries(&k2, e2, TP_ENTRIES_MAX, &n, &why), 0);
	CHECK_EQ(n, 1);
	txt = list(out, wl, &ret, &why);
	CHECK_EQ(ret, 0);
	CHECK_STR(txt, "0 two PolicyPCR(sha256:7,16)\n");
	free(txt);

	/* remove both: no [3]; the same key as one made without it */
	wl = tp_key_write(&k, NULL, 0, NULL, 0, out, sizeof(out), &why);
	free(blob);
	blob = mk_key(NULL, 0, &len);
	CHECK_EQ(wl, len);
	CHECK_MEM(out, blob, len);
	free(blob);

	/* a [3] onto a key of 12 fields would make 13: refused */
	blob = mk_key(NULL, TP_ELEMS_MAX - 5, &len);
	CHECK_EQ(tp_key_parse(blob, len, &k, &why), 0);
	wl = tp_key_write(&k, NULL, 0, a, al > 0 ? al : 0, out, sizeof(out), &why);
	CHECK_EQ(wl, -E2BIG);
	/* and anything longer than the buffer */
	wl = tp_key_write(&k, NULL, 0, NULL, 0, out, 16, &why);
	CHECK_EQ(wl, -E2BIG);
	free(blob);
}

/* A file's bytes: DER as is, hex with whitespace, nothing else. */
static void test_blob_decode(void)
{
	static u8 out[TP_BLOB_MAX];
	const char *why;
	bool hex;
	u32 len;

	CHECK_EQ(tp_blob_decode((const u8 *)"30 02\n05 00\n", 12, out, sizeof(out),
				&len, &hex, &why), 0);
	CHECK_EQ(len, 4);
	CHECK(hex);
	CHECK_MEM(out, "\x30\x02\x05\x00", 4);
	CHECK_EQ(tp_blob_decode((const u8 *)"\x30\x00", 2, out, sizeof(out),
				&len, &hex, &why), 0);
	CHECK(!hex);
	CHECK_EQ(tp_blob_decode((const u8 *)"300", 3, out, sizeof(out), &len,
				&hex, &why), -EINVAL);
	CHECK_EQ(tp_blob_decode((const u8 *)"30zz", 4, out, sizeof(out), &len,
				&hex, &why), -EINVAL);
	CHECK_EQ(tp_blob_decode((const u8 *)"", 0, out, sizeof(out), &len,
				&hex, &why), -EINVAL);
	CHECK_EQ(tp_blob_decode((const u8 *)"300000", 6, out, 2, &len, &hex,
				&why), -EINVAL);
	CHECK_EQ(tp_blob_decode((const u8 *)"\x30\x01\x00", 3, out, 2, &len,
				&hex, &why), -EINVAL);
	CHECK_STR(why, "too long");
}

int main(void)
{
	RUN(test_policy_pcr_oob);
	RUN(test_policy_pcr_fields);
	RUN(test_list_escapes_names);
	RUN(test_print_escaped_all_bytes);
	RUN(test_list_format);
	RUN(test_list_policy_ref);
	RUN(test_list_policy_ref_sizes);
	RUN(test_key_policy_ref);
	RUN(test_list_malformed_der);
	RUN(test_key_truncated);
	RUN(test_key_parse);
	RUN(test_rewrite);
	RUN(test_blob_decode);
	return tk_test_done();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * trusted-policy's TPMKey reading, rewriting and listing (tp_blob.h).
 *
 * Everything here reads bytes an attacker may have written: a blob handed
 * to `trusted-policy list` can come from anywhere. Each read goes through
 * src/lib's DER reader (which never leaves the element it is in) or a
 * tk_rsp_buf over one OCTET STRING's contents (which never leaves it
 * either), and what is printed of the blob is escaped (tp_print_escaped()).
 * Fuzzed by tests/fuzz/fuzz_tp_blob.c; tests/host/test_tp_blob.c.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>
#include "tk_buf.h"
#include "tk_hash.h"
#include "tk2_msg.h"
#include "tk2_pcr.h"
#include "tk2_signed.h"
#include "tk2_policy.h"
#include "tp_blob.h"

#define CC_POLICY_AUTHORIZE	0x0000016a

#define FAIL(err, msg)	({ *why = (msg); (err); })

static int hex_val(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/**
 * tp_hex_decode() - hex digits into bytes, whitespace ignored
 * @s: the text
 * @n: its length
 * @out: the bytes
 * @size: the room in @out
 *
 * Return: the byte count, or -1 on a non-hex character, an odd digit count
 * or more than @size bytes.
 */
long tp_hex_decode(const char *s, size_t n, u8 *out, size_t size)
{
	size_t i, len = 0;
	int hi = -1, v;

	for (i = 0; i < n; i++) {
		if (isspace((unsigned char)s[i]))
			continue;
		v = hex_val((unsigned char)s[i]);
		if (v < 0)
			return -1;
		if (hi < 0) {
			hi = v;
			continue;
		}
		if (len == size)
			return -1;
		out[len++] = hi << 4 | v;
		hi = -1;
	}
	return hi < 0 ? (long)len : -1;
}

/**
 * tp_blob_decode() - a TPMKey as read from a file: DER, or hex as keyctl
 * pipe prints it
 * @text: the file's bytes
 * @n: their count
 * @out: the DER
 * @size: the room in @out
 * @len: the DER's length, on success
 * @hex: whether @text was hex, on success
 * @why: the reason, on failure
 *
 * Return: 0, or -EINVAL.
 */
int tp_blob_decode(const u8 *text, size_t n, u8 *out, u32 size, u32 *len,
		   bool *hex, const char **why)
{
	long got;

	if (n && text[0] == TK_DER_SEQUENCE) {
		if (n > size)
			return FAIL(-EINVAL, "too long");
		memcpy(out, text, n);
		*len = n;
		*hex = false;
		return 0;
	}
	got = tp_hex_decode((const char *)text, n, out, size);
	if (got <= 0)
		return FAIL(-EINVAL, "neither DER nor hex");
	*len = got;
	*hex = true;
	return 0;
}

/**
 * tp_key_parse() - split a TPMKey into its top-level elements
 * @blob: the DER
 * @len: its length
 * @k: the elements, pointing into @blob
 * @why: the reason, on failure
 *
 * One SEQUENCE of at most TP_ELEMS_MAX elements: the type OID first, then
 * anything, then parent INTEGER, pubkey and privkey OCTET STRINGs.
 *
 * Return: 0, or -EINVAL.
 */
int tp_key_parse(const u8 *blob, u32 len, struct tp_key *k, const char **why)
{
	struct tk_der top, d;
	struct tk_der_tlv t;

	memset(k, 0, sizeof(*k));
	k->policy = k->auth_policy = k->pub = -1;
	tk_der_init(&top, blob, len);
	if (tk_der_enter(&top, TK_DER_SEQUENCE, &d) || !tk_der_empty(&top))
		return FAIL(-EINVAL, "not one DER SEQUENCE");
	while (!tk_der_empty(&d)) {
		struct tp_elem *e = &k->e[k->n];
		const u8 *start = d.p;

		if (k->n == TP_ELEMS_MAX || tk_der_next(&d, &t))
			return FAIL(-EINVAL, "malformed TPMKey");
		e->tag = t.tag;
		e->t = t;
		e->raw = start;
		e->raw_len = d.p - start;
		/* the draft's fields appear once: a second [1] or [3] is not one */
		if (t.tag == TP_CTX(1) || t.tag == TP_CTX(3)) {
			int *i = t.tag == TP_CTX(1) ? &k->policy : &k->auth_policy;

			if (*i >= 0)
				return FAIL(-EINVAL, "malformed TPMKey (a field twice)");
			*i = k->n;
		}
		k->n++;
	}
	if (k->n < 4 || k->e[0].tag != TK_DER_OID ||
	    k->e[k->n - 1].tag != TK_DER_OCTET_STRING ||
	    k->e[k->n - 2].tag != TK_DER_OCTET_STRING ||
	    k->e[k->n - 3].tag != TK_DER_INTEGER)
		return FAIL(-EINVAL, "not a TPMKey (type, ..., parent, pubkey, privkey)");
	k->pub = k->n - 2;
	return 0;
}

/**
 * tp_key_auth_policy() - the sealed object's authPolicy (SHA-256 only)
 * @k: the key
 * @policy: TP_SHA256_LEN bytes inside the blob, on success
 * @why: the reason, on failure
 *
 * Return: 0, or -EINVAL.
 */
int tp_key_auth_policy(const struct tp_key *k, const u8 **policy,
		       const char **why)
{
	const struct tk_der_tlv *t = &k->e[k->pub].t;
	struct tk2_public info;

	if (tk2_public_parse(t->val, t->len, &info))
		return FAIL(-EINVAL, "the public part is not a sealed data object");
	if (info.name_alg != TK2_ALG_SHA256 || info.policy_len != TP_SHA256_LEN)
		return FAIL(-EINVAL, "the object has no SHA-256 policy (seal it with policydigest=$(trusted-policy authorize ...))");
	*policy = info.policy;
	return 0;
}

/**
 * tp_entries() - the TPMAuthPolicy entries of [3]
 * @k: the key
 * @out: the entries, pointing into the blob
 * @max: the room in @out
 * @count: the number of entries, on success (0 without [3])
 * @why: the reason, on failure
 *
 * Each is SEQUENCE { [0] UTF8String name OPTIONAL, [1] SEQUENCE OF
 * TPMPolicy }, nothing else; the TPMPolicy entries are read by tp_list().
 *
 * Return: 0, -EINVAL when malformed, -E2BIG for more than @max entries.
 */
int tp_entries(const struct tp_key *k, struct tp_entry *out, unsigned int max,
	       unsigned int *count, const char **why)
{
	struct tk_der outer, seq, item;
	struct tk_der_tlv t;
	unsigned int n = 0;

	*count = 0;
	if (k->auth_policy < 0)
		return 0;
	tk_der_init(&outer, k->e[k->auth_policy].t.val,
		    k->e[k->auth_policy].t.len);
	if (tk_der_enter(&outer, TK_DER_SEQUENCE, &seq) || !tk_der_empty(&outer))
		return FAIL(-EINVAL, "malformed authPolicy");
	while (!tk_der_empty(&seq)) {
		struct tp_entry *e = &out[n];
		struct tk_der f;
		const u8 *start = seq.p;

		if (n == max)
			return FAIL(-E2BIG, "too many signed policies");
		memset(e, 0, sizeof(*e));
		if (tk_der_enter(&seq, TK_DER_SEQUENCE, &item))
			return FAIL(-EINVAL, "malformed TPMAuthPolicy");
		e->raw = start;
		e->raw_len = seq.p - start;
		if (tk_der_peek(&item) == TP_CTX(0)) {
			if (tk_der_enter(&item, TP_CTX(0), &f) ||
			    tk_der_expect(&f, TK_DER_UTF8STRING, &t) ||
			    !tk_der_empty(&f))
				return FAIL(-EINVAL, "malformed TPMAuthPolicy name");
			e->name = t.val;
			e->name_len = t.len;
		}
		if (tk_der_enter(&item, TP_CTX(1), &f) ||
		    tk_der_enter(&f, TK_DER_SEQUENCE, &e->cmds) ||
		    !tk_der_empty(&f) || !tk_der_empty(&item))
			return FAIL(-EINVAL, "malformed TPMAuthPolicy policy");
		n++;
	}
	*count = n;
	return 0;
}

/**
 * tp_auth_field() - [3] EXPLICIT SEQUENCE OF TPMAuthPolicy from entries
 * @raw: the encoded entries
 * @len: their lengths
 * @n: their number
 * @out: the field
 * @size: the room in @out
 * @why: the reason, on failure
 *
 * Return: the field's length, or -E2BIG.
 */
int tp_auth_field(const u8 *const *raw, const u32 *len, unsigned int n,
		  u8 *out, u32 size, const char **why)
{
	struct tk_cmd_buf w;
	u32 total = 0, i;

	for (i = 0; i < n; i++) {
		if (len[i] > size - total)
			return FAIL(-E2BIG, "authPolicy too long");
		total += len[i];
	}
	tk_cmd_init(&w, out, size);
	tk_der_put_hdr(&w, TP_CTX(3), tk_der_size(total));
	tk_der_put_hdr(&w, TK_DER_SEQUENCE, total);
	for (i = 0; i < n; i++)
		tk_cmd_bytes(&w, raw[i], len[i]);
	if (w.bad)
		return FAIL(-E2BIG, "authPolicy too long");
	return w.len;
}

/**
 * tp_key_write() - @k with [1] and [3] replaced
 * @k: the key
 * @pol: the new [1] field, whole (NULL: none)
 * @pol_len: its length
 * @auth: the new [3] field, whole (NULL: none)
 * @auth_len: its length
 * @out: the new TPMKey
 * @size: the room in @out
 * @why: the reason, on failure
 *
 * The order: type, then the [n] fields in tag order, then the rest (parent,
 * pubkey, privkey) as they were.
 *
 * Return: the new TPMKey's length, or -E2BIG (longer than @size, or more
 * than TP_ELEMS_MAX fields).
 */
int tp_key_write(const struct tp_key *k, const u8 *pol, u32 pol_len,
		 const u8 *auth, u32 auth_len, u8 *out, u32 size,
		 const char **why)
{
	struct { u8 tag; const u8 *p; u32 n; } f[TP_ELEMS_MAX + 2];
	unsigned int nf = 0, i, j;
	struct tk_cmd_buf w;
	u32 body = 0;

	for (i = 0; i < k->n && i < TP_ELEMS_MAX; i++) {
		u8 tag = k->e[i].tag;

		if (tag == TP_CTX(1) || tag == TP_CTX(3))
			continue;
		f[nf].tag = tag;
		f[nf].p = k->e[i].raw;
		f[nf++].n = k->e[i].raw_len;
	}
	if (pol) {
		f[nf].tag = TP_CTX(1);
		f[nf].p = pol;
		f[nf++].n = pol_len;
	}
	if (auth) {
		f[nf].tag = TP_CTX(3);
		f[nf].p = auth;
		f[nf++].n = auth_len;
	}
	if (nf > TP_ELEMS_MAX)		/* tp_key_parse() would refuse it */
		return FAIL(-E2BIG, "the new TPMKey has too many fields");
	/* stable sort of the [n] fields, which lie between type and parent */
	for (i = 1; i < nf; i++) {
		for (j = i; j > 1 && (f[j].tag & 0xe0) == TK_DER_CONTEXT &&
		     ((f[j - 1].tag & 0xe0) != TK_DER_CONTEXT ||
		      f[j - 1].tag > f[j].tag) && f[j - 1].tag != TK_DER_OID; j--) {
			typeof(f[0]) t = f[j];

			f[j] = f[j - 1];
			f[j - 1] = t;
		}
	}
	for (i = 0; i < nf; i++) {
		if (f[i].n > size - body)
			return FAIL(-E2BIG, "the new TPMKey is too long");
		body += f[i].n;
	}
	tk_cmd_init(&w, out, size);
	tk_der_put_hdr(&w, TK_DER_SEQUENCE, body);
	for (i = 0; i < nf; i++)
		tk_cmd_bytes(&w, f[i].p, f[i].n);
	if (w.bad)
		return FAIL(-E2BIG, "the new TPMKey is too long");
	return w.len;
}

/**
 * tp_print_escaped() - print bytes from a blob, safe for a terminal
 * @f: where
 * @p: the bytes
 * @n: their count
 *
 * Printable ASCII other than space and backslash as is; every other byte
 * (control characters, escape sequences, space, UTF-8) as \xHH, a
 * backslash as \\. The result is one word of printable ASCII.
 */
void tp_print_escaped(FILE *f, const u8 *p, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		if (p[i] == '\\')
			fputs("\\\\", f);
		else if (p[i] > ' ' && p[i] < 0x7f)
			fputc(p[i], f);
		else
			fprintf(f, "\\x%02x", p[i]);
	}
}

/*
 * A PolicyPCR body: TPM2B_DIGEST pcrDigest, TPML_PCR_SELECTION (count,
 * then hash, sizeofSelect, bitmap each), nothing after. Printed as
 * " PolicyPCR(sha256:7,16)", banks joined by '+'; an unknown bank as its
 * algorithm id.
 */
static int list_pcr(FILE *f, const u8 *body, u32 len, const char **why)
{
	struct tk_rsp_buf r = { .data = body, .len = len };
	u32 count, i, j, n, mask;
	unsigned int pcr;
	enum tk_hash h;
	u16 alg;

	tk_rsp_bytes(&r, tk_rsp_u16(&r));	/* pcrDigest */
	count = tk_rsp_u32(&r);
	if (r.bad || !count || count > TK2_SELECTIONS_MAX)
		return FAIL(-EINVAL, "malformed PolicyPCR body");
	fputs(" PolicyPCR(", f);
	for (i = 0; i < count; i++) {
		alg = tk_rsp_u16(&r);
		n = tk_rsp_u8(&r);
		if (n > 4)
			return FAIL(-EINVAL, "malformed PolicyPCR body");
		for (j = 0, mask = 0; j < n; j++)
			mask |= (u32)tk_rsp_u8(&r) << (8 * j);
		if (r.bad)
			return FAIL(-EINVAL, "malformed PolicyPCR body");
		h = tk_hash_by_alg(alg);
		if (i)
			fputc('+', f);
		if (h < TK_HASH_COUNT)
			fprintf(f, "%s:", tk_hash_name(h));
		else
			fprintf(f, "0x%04x:", alg);
		for (pcr = 0; pcr < 32; pcr++)
			if (mask & 1U << pcr)
				fprintf(f, "%s%u", mask & ((1U << pcr) - 1) ? "," : "",
					pcr);
	}
	if (tk_rsp_end(&r))
		return FAIL(-EINVAL, "malformed PolicyPCR body");
	fputc(')', f);
	return 0;
}

/*
 * The first two parts of a PolicyAuthorize body: TPM2B_PUBLIC keySign (at
 * least type and nameAlg) and TPM2B_DIGEST policyRef (at most TP_REF_MAX
 * bytes). The signature after them is the TPM's to check.
 */
static int authorize_parts(const u8 *body, u32 len, const u8 **pub,
			   u16 *pub_len, const u8 **ref, u32 *ref_len)
{
	struct tk_rsp_buf r = { .data = body, .len = len };

	*pub_len = tk_rsp_u16(&r);
	*pub = tk_rsp_bytes(&r, *pub_len);
	*ref_len = tk_rsp_u16(&r);
	if (r.bad || *pub_len < 4 || *ref_len > TP_REF_MAX)
		return -EINVAL;
	*ref = tk_rsp_bytes(&r, *ref_len);
	return r.bad ? -EINVAL : 0;
}

/**
 * tp_print_ref() - a policyRef as the tool shows it
 * @f: where
 * @ref: its bytes
 * @len: their count
 *
 * Hex (nothing from the blob reaches the terminal as it is), or "none" and
 * what an empty one means.
 */
void tp_print_ref(FILE *f, const u8 *ref, u32 len)
{
	const u8 *name;
	u32 i, index;

	if (tk2_revoke_ref_parse(ref, len, &index, &name)) {
		fprintf(f, "revocation counter 0x%08x Name ", index);
		for (i = 0; i < TK2_NV_NAME_SIZE; i++)
			fprintf(f, "%02x", name[i]);
		if (len == TK2_REVOKE_REF_HEAD) {
			fputs(", no policyref", f);
			return;
		}
		fputs(", policyref ", f);
		ref += TK2_REVOKE_REF_HEAD;
		len -= TK2_REVOKE_REF_HEAD;
	}
	if (!len) {
		fputs("none (any key sealed to this signer accepts these approvals)",
		      f);
		return;
	}
	for (i = 0; i < len; i++)
		fprintf(f, "%02x", ref[i]);
}

/**
 * tp_key_policy_ref() - the policyRef of a key's own policy [1]
 * @k: the key
 * @ref: the policyRef, inside the blob, on success
 * @len: its length (0: empty), on success
 * @why: the reason, on failure
 *
 * [1] is a SEQUENCE OF TPMPolicy whose first is the PolicyAuthorize of
 * the signer (sigAlg NULL); its policyRef is the one the object's
 * authPolicy was made with, and the one every signed policy must carry.
 *
 * Return: 0, -ENOENT without [1], -EINVAL when [1] is malformed or does
 * not start with a PolicyAuthorize.
 */
int tp_key_policy_ref(const struct tp_key *k, const u8 **ref, u32 *len,
		      const char **why)
{
	struct tk_der outer, seq, item, c, b;
	struct tk_der_tlv t, body;
	const u8 *pub;
	u16 pub_len;
	u32 code;

	if (k->policy < 0)
		return FAIL(-ENOENT, "no policy field");
	tk_der_init(&outer, k->e[k->policy].t.val, k->e[k->policy].t.len);
	if (tk_der_enter(&outer, TK_DER_SEQUENCE, &seq) || !tk_der_empty(&outer) ||
	    tk_der_enter(&seq, TK_DER_SEQUENCE, &item) ||
	    tk_der_enter(&item, TP_CTX(0), &c) || tk_der_next(&c, &t) ||
	    !tk_der_empty(&c) || tk_der_u32(&t, &code) ||
	    tk_der_enter(&item, TP_CTX(1), &b) ||
	    tk_der_expect(&b, TK_DER_OCTET_STRING, &body) ||
	    !tk_der_empty(&b) || !tk_der_empty(&item))
		return FAIL(-EINVAL, "malformed policy field");
	if (code != CC_POLICY_AUTHORIZE)
		return FAIL(-EINVAL, "the policy field does not start with a PolicyAuthorize");
	if (authorize_parts(body.val, body.len, &pub, &pub_len, ref, len))
		return FAIL(-EINVAL, "malformed PolicyAuthorize body in the policy field");
	return 0;
}

/* The key's policyRef for the listing: set when [1] gives one. */
struct key_ref {
	bool set;
	const u8 *p;
	u32 len;
};

/*
 * A PolicyAuthorize body: TPM2B_PUBLIC keySign, TPM2B_DIGEST policyRef
 * (the rest, the signature, is the TPM's to check). Printed as the
 * signer's TPM name when its nameAlg is SHA-256, the one the tool signs
 * with, then the policyRef; one that is not the key's is said to be
 * skipped at load.
 */
static int list_authorize(FILE *f, const u8 *body, u32 len,
			  const struct key_ref *kr, tp_sha256_fn *sha256,
			  const char **why)
{
	u8 name[2 + TP_SHA256_LEN];
	const u8 *pub, *ref;
	u16 plen, alg;
	u32 i, ref_len;

	if (authorize_parts(body, len, &pub, &plen, &ref, &ref_len))
		return FAIL(-EINVAL, "malformed PolicyAuthorize body");
	alg = get_unaligned_be16(pub + 2);
	if (alg != TK2_ALG_SHA256) {
		fprintf(f, " PolicyAuthorize(signer nameAlg 0x%04x)", alg);
	} else {
		put_unaligned_be16(TK2_ALG_SHA256, name);
		sha256(pub, plen, name + 2);
		fputs(" PolicyAuthorize(signer ", f);
		for (i = 0; i < sizeof(name); i++)
			fprintf(f, "%02x", name[i]);
		fputc(')', f);
	}
	fputs(" policyRef: ", f);
	tp_print_ref(f, ref, ref_len);
	if (kr->set && (kr->len != ref_len ||
		       (ref_len && memcmp(kr->p, ref, ref_len)))) {
		fputs(" [not the key's policyRef, ", f);
		if (kr->len)
			tp_print_ref(f, kr->p, kr->len);
		else
			fputs("none", f);
		fputs(": load skips it]", f);
	}
	return 0;
}

/* A PolicyNV: the revocation check of the key's counter, or another. */
static int list_nv(FILE *f, const u8 *body, u32 len, const struct key_ref *kr,
		   bool *revoke_ok, const char **why)
{
	struct tk2_policy_nv nv;
	const u8 *name;
	u32 index;
	u64 count;

	if (tk2_policy_nv_parse(body, len, &nv))
		return FAIL(-EINVAL, "malformed PolicyNV body");
	if (kr->set && tk2_revoke_ref_parse(kr->p, kr->len, &index, &name) &&
	    tk2_policy_nv_is_revoke(&nv, index, &count)) {
		fprintf(f, " PolicyNV(counter 0x%08x <= %llu)", index,
			(unsigned long long)count);
		*revoke_ok = true;
		return 0;
	}
	fprintf(f, " PolicyNV(0x%08x, operation %u, offset %u, %u bytes)",
		nv.index, nv.op, nv.offset, nv.operand.len);
	return 0;
}

/* The commands of one entry: SEQUENCE OF { [0] INTEGER, [1] OCTET STRING }. */
static int list_cmds(FILE *f, struct tk_der cmds, const struct key_ref *kr,
		     tp_sha256_fn *sha256, const char **why)
{
	const u8 *name;
	bool revoke_ok = false;
	u32 index;

	while (!tk_der_empty(&cmds)) {
		struct tk_der item, c, b;
		struct tk_der_tlv t, body;
		u32 code;
		int ret;

		if (tk_der_enter(&cmds, TK_DER_SEQUENCE, &item) ||
		    tk_der_enter(&item, TP_CTX(0), &c) || tk_der_next(&c, &t) ||
		    !tk_der_empty(&c) || tk_der_u32(&t, &code) ||
		    tk_der_enter(&item, TP_CTX(1), &b) ||
		    tk_der_expect(&b, TK_DER_OCTET_STRING, &body) ||
		    !tk_der_empty(&b) || !tk_der_empty(&item))
			return FAIL(-EINVAL, "malformed TPMPolicy");
		switch (code) {
		case TK2_CC_POLICY_PCR:
			ret = list_pcr(f, body.val, body.len, why);
			break;
		case CC_POLICY_AUTHORIZE:
			ret = list_authorize(f, body.val, body.len, kr, sha256,
					     why);
			break;
		case TK2_CC_POLICY_NV:
			ret = list_nv(f, body.val, body.len, kr, &revoke_ok, why);
			break;
		case TK2_CC_POLICY_COMMAND_CODE:
			if (body.len == 4 && get_unaligned_be32(body.val) == TK2_CC_UNSEAL) {
				fputs(" PolicyCommandCode(Unseal)", f);
			} else {
				fprintf(f, " PolicyCommandCode(0x%x)",
					body.len == 4 ? get_unaligned_be32(body.val) : 0);
			}
			ret = 0;
			break;
		default:	/* by its name in src/lib's table, if it has one */
			if (tk2_policy_cmd(code))
				fprintf(f, " %s", tk2_policy_cmd(code)->name);
			else
				fprintf(f, " 0x%x", code);
			ret = 0;
		}
		if (ret)
			return ret;
	}
	if (kr->set && tk2_revoke_ref_parse(kr->p, kr->len, &index, &name) &&
	    !revoke_ok)
		fputs(" [no check of the key's revocation counter: load skips it]", f);
	return 0;
}

/**
 * tp_list() - the signed policies of a key, one line each
 * @k: the key
 * @f: where to print
 * @sha256: SHA-256, for the signers' names
 * @why: the reason, on failure
 *
 * "INDEX NAME COMMAND...": the name escaped (tp_print_escaped()), "-" for
 * none, "" when empty, \x2d when "-"; PolicyPCR(BANK:LIST),
 * PolicyAuthorize(signer NAME) policyRef: HEX (tp_print_ref(), and when
 * the key's policy [1] names another policyRef, that load skips it),
 * PolicyCommandCode(Unseal), PolicyAuthValue, PolicyNV(counter INDEX <= N) (a key with revocation:
 * its policyRef names the counter; first a "# revocation" line, and an
 * entry without that check is said to be skipped) or the command code
 * in hex. On failure part of the
 * output may have been printed: print to a memory stream and show it on
 * success.
 *
 * Return: 0, -EINVAL when an entry is malformed, -E2BIG for too many.
 */
int tp_list(const struct tp_key *k, FILE *f, tp_sha256_fn *sha256,
	    const char **why)
{
	struct tp_entry ents[TP_ENTRIES_MAX];
	struct key_ref kr = { 0 };
	const char *ignored;
	const u8 *name;
	unsigned int n, i;
	u32 index;
	int ret;

	ret = tp_entries(k, ents, TP_ENTRIES_MAX, &n, why);
	if (ret)
		return ret;
	/* a malformed [1]: nothing to compare with (load refuses the key) */
	kr.set = !tp_key_policy_ref(k, &kr.p, &kr.len, &ignored);
	if (kr.set && tk2_revoke_ref_parse(kr.p, kr.len, &index, &name))
		fprintf(f, "# revocation: each approval checks NV counter 0x%08x; the TPM refuses it once the counter is above the value it names (tpm2_nvincrement revokes)\n",
			index);
	for (i = 0; i < n; i++) {
		fprintf(f, "%u ", i);
		if (!ents[i].name)
			fputc('-', f);
		else if (!ents[i].name_len)
			fputs("\"\"", f);
		else if (ents[i].name_len == 1 && ents[i].name[0] == '-')
			fputs("\\x2d", f);	/* not "-", no name */
		else
			tp_print_escaped(f, ents[i].name, ents[i].name_len);
		ret = list_cmds(f, ents[i].cmds, &kr, sha256, why);
		if (ret)
			return ret;
		fputc('\n', f);
	}
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TPM 1.2 encrypted transport sessions (TPM Main Part 3 §24, Part 1
 * "Transport Protection", Part 2 TPM_TRANSPORT_PUBLIC/TPM_TRANSPORT_AUTH):
 * the session secret OAEP-encoded for a storage key (SHA-1, MGF1, label
 * "TCPA"), TPM_GetPubKey, TPM_EstablishTransport, and one command wrapped
 * in TPM_ExecuteTransport with its parameters MGF1-XOR encrypted (algId
 * TPM_ALG_MGF1) both ways.
 *
 * Kernel-free: SHA-1 and HMAC-SHA1 are the caller's (struct tk1_crypto),
 * the RSA operation on the encoded secret too. Every intermediate secret
 * is wiped before return.
 */
#ifndef TK1_TRANSPORT_H
#define TK1_TRANSPORT_H

#include <linux/types.h>
#include "tk_buf.h"
#include "tk1_msg.h"

#define TK1_ORD_GET_PUBKEY		0x00000021
#define TK1_ORD_ESTABLISH_TRANSPORT	0x000000e6
#define TK1_ORD_EXECUTE_TRANSPORT	0x000000e7

#define TK1_TAG_TRANSPORT_AUTH		0x001d
#define TK1_TAG_TRANSPORT_PUBLIC	0x001e
#define TK1_TRANSPORT_ENCRYPT		0x00000001
#define TK1_ALG_RSA			0x00000001
#define TK1_ALG_MGF1			0x00000007
#define TK1_ES_NONE			0x0001
#define TK1_ES_RSAESOAEP_SHA1_MGF1	0x0003
#define TK1_RT_TRANS			0x00000004

/* TPM_TRANSPORT_AUTH: tag(2) authData(20), what the secret carries. */
#define TK1_TRANSPORT_AUTH_SIZE		(2 + TK1_DIGEST_SIZE)
#define TK1_RSA_MIN_BYTES		128	/* 1024 bits */
#define TK1_RSA_MAX_BYTES		256	/* 2048 bits, a storage key */
/* Request/response auth trailers: handle nonce continue hmac / nonce continue hmac */
#define TK1_AUTH_IN_SIZE		(4 + TK1_NONCE_SIZE + 1 + TK1_DIGEST_SIZE)
#define TK1_AUTH_OUT_SIZE		(TK1_NONCE_SIZE + 1 + TK1_DIGEST_SIZE)

/*
 * The primitives, the caller's; @ctx is passed back to each.
 * @sha1: SHA-1 of the concatenation of @n spans.
 * @hmac: HMAC-SHA1 keyed with a 20-byte @key over @n spans.
 * Both return 0 or a negative errno.
 */
struct tk1_crypto {
	void *ctx;
	int (*sha1)(void *ctx, const struct tk_span *in, unsigned int n,
		    u8 out[TK1_DIGEST_SIZE]);
	int (*hmac)(void *ctx, const u8 *key, const struct tk_span *in,
		    unsigned int n, u8 out[TK1_DIGEST_SIZE]);
};

/* A storage key's public part, pointing into a TPM_GetPubKey response. */
struct tk1_pubkey {
	struct tk_span params;		/* the TPM_PUBKEY: the HMAC's span */
	struct tk_span modulus;
	u32 exponent;
	u16 enc_scheme;
	struct tk1_auth_out auth;
};

/* An open transport session: its handle, secret and rolling nonce. */
struct tk1_transport {
	u32 handle;
	bool last;		/* the next command ends the session */
	u8 auth[TK1_DIGEST_SIZE];
	u8 nonce_even[TK1_NONCE_SIZE];
};

/* TPM_EstablishTransport's answer, pointing into the response. */
struct tk1_establish_out {
	u32 handle;
	struct tk_span params;		/* locality ticks nonce: the HMAC's span */
	const u8 *nonce_even;
	struct tk1_auth_out auth;
};

int tk1_mgf1_xor(const struct tk1_crypto *c, const struct tk_span *seed,
		 unsigned int n, u8 *buf, u32 len);
int tk1_oaep_encode(const struct tk1_crypto *c, const u8 *msg, u32 msg_len,
		    const u8 *seed, u8 *em, u32 k);
int tk1_rsa_pub_der(u8 *out, u32 size, const struct tk_span *modulus,
		    u32 exponent);

int tk1_get_pubkey_params(struct tk_cmd_buf *b, u8 *buf, u32 size,
			  u32 keyhandle, struct tk_span *params);
int tk1_parse_pubkey(const u8 *rsp, u32 size, struct tk1_pubkey *out);

int tk1_establish_params(struct tk_cmd_buf *b, u8 *buf, u32 size,
			 u32 enchandle, const u8 *secret, u32 secret_len,
			 struct tk_span *params);
int tk1_parse_establish(const u8 *rsp, u32 size,
			struct tk1_establish_out *out);

/*
 * The command in @buf (complete, its size in its header, @handles 4-byte
 * handles after the header) is wrapped in place into TPM_ExecuteTransport:
 * its parameters encrypted, the transport authorisation appended, with
 * @nonce_odd fresh from the caller. tk1_transport_unwrap() checks the
 * answer, decrypts the wrapped response and moves it to the start of
 * @buf, for the wrapped command's own parser.
 */
int tk1_transport_wrap(const struct tk1_crypto *c,
		       const struct tk1_transport *t, u8 *buf, u32 size,
		       u32 handles, const u8 *nonce_odd);
int tk1_transport_unwrap(const struct tk1_crypto *c, struct tk1_transport *t,
			 u8 *buf, u32 size, u32 ordinal, const u8 *nonce_odd);

#endif /* TK1_TRANSPORT_H */

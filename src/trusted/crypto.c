// SPDX-License-Identifier: GPL-2.0
/*
 * The public-key algorithms that protect the TPM bus, for both TPM
 * versions: the "rsa" akcipher (the TPM 1.2 transport secret, the TPM 2.0
 * RSA salt) and the "ecdh-nist-p256" kpp (the TPM 2.0 ECC salt). A kernel
 * without them cannot protect the bus: the operation is refused with
 * ENOPKG and a line that names the missing option, on both versions
 * alike. Test kernels (CONFIG_FAIL_FUNCTION) can make either allocation
 * fail, as on a kernel built without it.
 */
#include <crypto/akcipher.h>
#include <crypto/kpp.h>
#include <linux/crypto.h>
#include <linux/err.h>
#include <linux/error-injection.h>
#include <linux/kmod.h>
#include <linux/scatterlist.h>
#include "trusted.h"

/**
 * trusted_crypto_alloc_rsa() - the "rsa" akcipher
 *
 * May load a module: call it before the chip is held.
 *
 * Return: the transform, or an ERR_PTR.
 */
noinline struct crypto_akcipher *trusted_crypto_alloc_rsa(void)
{
	return crypto_alloc_akcipher("rsa", 0, 0);
}

/**
 * trusted_crypto_alloc_ecdh() - the "ecdh-nist-p256" kpp
 *
 * The kernel asks the module loader for "crypto-ecdh-nist-p256", but
 * ecdh_generic (a module in Debian's 6.1 and 6.12 kernels) is aliased
 * only as "crypto-ecdh": that name is asked for once, then looked up
 * again. May load a module: call it before the chip is held.
 *
 * Return: the transform, or an ERR_PTR.
 */
noinline struct crypto_kpp *trusted_crypto_alloc_ecdh(void)
{
	struct crypto_kpp *kpp = crypto_alloc_kpp("ecdh-nist-p256", 0, 0);

	if (PTR_ERR_OR_ZERO(kpp) != -ENOENT)
		return kpp;
	request_module("crypto-ecdh");
	return crypto_alloc_kpp("ecdh-nist-p256", 0, 0);
}

#if IS_ENABLED(CONFIG_FAIL_FUNCTION)
ALLOW_ERROR_INJECTION(trusted_crypto_alloc_rsa, ERRNO);
ALLOW_ERROR_INJECTION(trusted_crypto_alloc_ecdh, ERRNO);
#endif

/**
 * trusted_crypto_missing() - refuse an operation for a missing algorithm
 * @err: the allocation's error
 * @alg: the algorithm's name
 * @option: the kernel option that provides it
 *
 * Return: -ENOPKG when the kernel has no @alg (one warning naming
 * @option), else @err (out of memory, a failed self-test: one line).
 */
int trusted_crypto_missing(int err, const char *alg, const char *option)
{
	if (err == -ENOENT) {
		pr_warn_ratelimited("no %s in this kernel (%s): the TPM bus cannot be protected; refused (sessions=0 goes without)\n",
				    alg, option);
		return -ENOPKG;
	}
	pr_warn_ratelimited("%s is unusable (%d): refused\n", alg, err);
	return err;
}

/**
 * trusted_rsa_encrypt() - raw RSA encryption of an encoded message
 * @tfm: an "rsa" akcipher
 * @der: the public key, an RSAPublicKey in DER (tk1_rsa_pub_der())
 * @der_len: its length
 * @em: the encoded message (OAEP), @k bytes
 * @out: the ciphertext, @k bytes
 * @k: the modulus size in bytes: the key's must be that
 *
 * Shared by the TPM 1.2 transport secret and the TPM 2.0 RSA salt.
 *
 * Return: 0 or a negative errno (one rate-limited line).
 */
int trusted_rsa_encrypt(struct crypto_akcipher *tfm, const u8 *der,
			u32 der_len, u8 *em, u8 *out, u32 k)
{
	struct akcipher_request *req = NULL;
	struct scatterlist src, dst;
	DECLARE_CRYPTO_WAIT(wait);
	int ret;

	ret = crypto_akcipher_set_pub_key(tfm, der, der_len);
	if (!ret && crypto_akcipher_maxsize(tfm) != k)
		ret = -EINVAL;
	if (!ret) {
		req = akcipher_request_alloc(tfm, GFP_KERNEL);
		if (!req)
			ret = -ENOMEM;
	}
	if (!ret) {
		sg_init_one(&src, em, k);
		sg_init_one(&dst, out, k);
		akcipher_request_set_crypt(req, &src, &dst, k, k);
		akcipher_request_set_callback(req, CRYPTO_TFM_REQ_MAY_SLEEP,
					      crypto_req_done, &wait);
		ret = crypto_wait_req(crypto_akcipher_encrypt(req), &wait);
	}
	if (ret)
		pr_info_ratelimited("RSA encryption to the parent failed (%d)\n",
				    ret);
	akcipher_request_free(req);
	return ret;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Real TPM 2.0 key blobs for the host tests (also in tests/fuzz/corpus/
 * tk2_key/): three written by the in-tree trusted.ko of linux 6.1 on
 * swtpm 0.7.1 (keyhandle=0x81000001), one by ours with pcrs=sha256:16,
 * three by tpm2-tools.
 */
#ifndef TK2_FIXTURES_H
#define TK2_FIXTURES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/errno.h>

/* Each test uses some of these. */
#define TK_FIXTURE static const char __attribute__((unused))

/* "new 32 keyhandle=0x81000001": emptyAuth TRUE written as 0x01 */
TK_FIXTURE intree_default_hex[] =
	"3081e906066781050a0105a003010101020500810000010430002e0008000b0000"
	"0040000000100020c3cd24ca2231e34a42ed4ddcf998646d7d64407488d4f1add8"
	"31543290f0b4e90481a0009e002058d1377b6d686a014dd6e1e9b57836c9156f56"
	"a91bba53ec727b3f37ebb28a020010f4217f7de20012058a8f84c31e007b01da8b"
	"97318c2e7879e7a57702cdd05fd2861af9dca65513c4ecc1bbcaf8a4e502caa5d8"
	"533d8b07c45503d39a898e0d92a850472d3d10cf3f9b84788ef52b24ed2a5d219b"
	"bd85209c5a6db42154345a8f4501f3b01dc137dd5672c3f8610b731f4f63703a38"
	"adbd6ae327";

/* "new 32 keyhandle=0x81000001 blobauth=hello hash=sha1 migratable=0" */
TK_FIXTURE intree_blobauth_hex[] =
	"3081c006066781050a0105020500810000010424002200080004000000520000"
	"001000142b76b750d2b2d2ee50b9e404a233ff135ecda8dc04818800860020e41d"
	"b8bbfee5612154df6d4a70be128b596676a6e3f071cdcb700ae2afd338e2001045"
	"73bf5ea0d20ff68b65a9fa4f843fa56eb1bfb6d88207654dad891f5f39f1024a85"
	"67ba9893b1142c6a95bfb5f1720607256e2b761c111b7a32d82dae5311255c57c6"
	"5eb4db0e43087a94061100af27ac1676f3310fb6b8b5a711d3bd1a54812083";

/* "new 32 keyhandle=0x81000001 policydigest=<PolicyAuthValue, sha256>" */
TK_FIXTURE intree_policy_hex[] =
	"3082010906066781050a0105a003010101020500810000010450004e0008000b00"
	"00000000208fcd2169ab92694e0c633f1ab772842b8241bbc20288981fc7ac1edd"
	"c1fddb0e001000204c10e25a0294b6e85c977f5f0c2eb5174d86afa0c952fc37f4"
	"7b3244004524ef0481a0009e00201e07286cafe71200a344865c45b852653351236"
	"bfad9b152b0357d88e4a243af0010af71e3ae4acc33e75c0a3537581bbbb9fea4f4"
	"0ee6696143f580f1022feb7ac9e080d93bdd788df46e012bab5b2721db71bbefdac"
	"8f185b53b03efe2b253cbc8a5f0cb32128d5a640a3f0600d0337bcae9bdad4ff227"
	"e6623c77e0acb9f51fb2ee8eb47e73d63d912f3786800b2ebeac885f0f30c07d892"
	"e1a5f";

/* ours, "new 32 pcrs=sha256:16" with PCR 16 all zeros, default parent */
TK_FIXTURE ours_pcrs_hex[] =
	"3082014506066781050a0105a0030101ffa13a30383036a0040202017fa12e042c"
	"002066687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f29"
	"2500000001000b03000001020500810000010450004e0008000b000000000020bf"
	"f2d58e9813f97cefc14f72ad8133bc7092d652b7c877959254af140c841f360010"
	"0020e464552df28c2b4db1f876605656b31565f33ef283c3bf1b1820f02f6c8b6d"
	"dd0481a0009e00203ca98d21711326bec7bdd1ad04e7adea9783fdc8294ddbf084"
	"920c89343cff30001087d22fd3d80c4480d11469fdcb14ad9c0628c6af99d78914"
	"01ca6ac0a9a98a257e26ede071423e713eacd79da5bd410b0c2d6ab2f90b26c216"
	"b92fc292fb78ac2bfaf991e8e99a4922374ee3ed4b8598497c725a6dd829a009b3"
	"28ee766bd34ed52a4f17a3baba21c541ff6b0a862b930f83afc2ef554e49c471";

/*
 * Written by tpm2-tools 5.4 on swtpm 0.7.1 under the SRK at 0x81000001:
 * tpm2_create -i <32 bytes> [-p hello], then tpm2_encodeobject [-p], which
 * labels any object with the loadable-key OID 2.23.133.10.1.3 and writes
 * emptyAuth inverted (FALSE without -p, TRUE with it).
 */
TK_FIXTURE tpm2tools_sealed_hex[] =
	"3081e906066781050a0103a003010100020500810000010430002e0008000b0000"
	"00520000001000206ac0e3d9c67583833b4cdb5305638941f275a8e1f4752d2d3d"
	"9b3a08d9700dd10481a0009e0020b6aeb026be1b5775a94ad8749a08d6b6fe9cc4"
	"eb59dde2a53bd5c5fd26d4c3a10010f86e9db8970b30549944bc996d3d0721fc62"
	"2d3ec7ca15c947ef628f32c306c50d81ce8e1af5999d1719268e2a7d6c85afa7ac"
	"b0402d00d9ddc2731a5dcc33403d949ac4d16de1b1f47a0e6aea12be6e15504feb"
	"f4c6274c57437d84c9ab748d05f72fc7e66ddb5d26a6b5ab256d2dcc9008848d7d"
	"b8e4bea2f8";

/* the same with -p hello: emptyAuth TRUE although the object has a password */
TK_FIXTURE tpm2tools_sealed_auth_hex[] =
	"3081e906066781050a0103a003010101020500810000010430002e0008000b0000"
	"0052000000100020061202b60703b3b54e44d5a98f80061ef6d1cbb41eb8dca44a"
	"f46ab31e9310020481a0009e0020c786228090a364af8c3b15ed00621d04c54ff4"
	"d9761b47a69f4debf80d7fc9790010645531322d137f6130feb46515c6edaaedd0"
	"3cb69e4275bb88c6a9695aa6302cb07a9f446ad2b07848670ad448755c2b9d5b4e"
	"4fcdd892df7ae086d2f76bcebdc060d9cb7c2b5bd43a7c512a7a360e02375dc927"
	"405d792e018a954ddd820603f8be9ab7be2c18009a8b751b77f28f4d06319a8fc4"
	"e8e00b435c";

/* tpm2_create -G hmac: a keyed-hash object with sign and an HMAC scheme */
TK_FIXTURE tpm2tools_hmac_hex[] =
	"3081eb06066781050a0103a00301010002050081000001043200300008000b0004"
	"007200000005000b002007f0475e29efd73241fc4e72b1db0390046d85e56e4d01"
	"f83225ed0e11a874620481a0009e002033e2e751810c8c3bf1b16c7aaea8b7d1bc"
	"87800c35cd3604c9c9a2ba1f5cd240001098214b9316929e5048b6650dd4ffb92e"
	"d0be9aaf943769930a0299bcd2a4c92bd892855175ab28c6b25de7dd1499026535"
	"88a316f5c49ad112211100647344eb6486e3e5e506b48fe3f5618216c6abcd79ac"
	"061e032335be47ec296fd3b6fdda9cbd985fafd8cafd15a8e749d4afe0d7326f92"
	"254103f245744e";


/*
 * Real responses of swtpm 0.7.1 (TPM 2.0) to the commands trusted.ko
 * sends: rsp_<name>_hex for each file of tests/fuzz/corpus/tk2_rsp/ (written
 * by tests/tools/mk-tpm2-corpus.py), turned into this header by the Makefile.
 */
#include "tk2_rsp.h"

/* The bytes @hex stands for, in a heap buffer of exactly that size. */
static inline u8 *tk_unhex(const char *hex, u32 *len)
{
	size_t n = strlen(hex) / 2, i;
	u8 *p = malloc(n ? n : 1);
	unsigned int v;

	for (i = 0; i < n; i++) {
		sscanf(hex + 2 * i, "%2x", &v);
		p[i] = (u8)v;
	}
	*len = (u32)n;
	return p;
}

/* An exact-size heap copy, so that ASan sees any read past the end. */
static inline u8 *tk_dup(const void *p, size_t n)
{
	u8 *d = malloc(n ? n : 1);

	if (n)
		memcpy(d, p, n);
	return d;
}

#endif /* TK2_FIXTURES_H */

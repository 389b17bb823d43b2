#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# Known-answer blobs for 50-interop.sh, computed from the blob format alone
# (docs/encrypted.md), independently of both kernel implementations:
#   enc key  = SHA-256("ENC_KEY\0"  || master, zero-padded to >= 32 bytes)
#   auth key = SHA-256("AUTH_KEY\0" || master, same length)
#   blob     = AES-256-CBC(enc key, iv, data || zero pad) and HMAC-SHA256(auth
#              key) over "format\0master\0datalen\0" iv "\0" ciphertext
# Needs python3 and the openssl command. Prints shell assignments.
import hashlib, hmac, subprocess
def aes_cbc(key, iv, data):
    return subprocess.run(["openssl","enc","-aes-256-cbc","-K",key.hex(),"-iv",iv.hex(),"-nopad"],input=data,capture_output=True,check=True).stdout
def derive(label, master):
    buf = label + b"\0" + master
    n = max(9 + len(master), 32)
    buf = buf + b"\0" * (n - len(buf))
    return hashlib.sha256(buf).digest()
def blob(fmt, master_desc, master, datalen_str, data, iv, legacy=False):
    ek, ak = derive(b"ENC_KEY", master), derive(b"AUTH_KEY", master)
    n = int(datalen_str); E = (n + 15)//16*16
    ct = aes_cbc(ek, iv, data + b"\0"*(E-n))
    image = (fmt.encode()+b"\0" if not legacy else b"") + master_desc.encode()+b"\0"+datalen_str.encode()+b"\0"+iv+b"\0"+ct
    mac = hmac.new(ak, image, hashlib.sha256).digest()
    head = ("" if legacy else fmt+" ") + master_desc + " " + datalen_str + " "
    return head + (iv + b"\0" + ct + mac).hex()
M = b"0123456789abcdef0123456789abcdef"
D32 = bytes(range(32)); IV = bytes(range(0xa0,0xb0))
print("KAT_LEGACY='%s'" % blob("default","user:ukm",M,"32",D32,IV,legacy=True))
print("KAT_NEW='%s'" % blob("default","user:ukm",M,"32",D32,IV))
D50 = bytes(range(100,150)); 
print("KAT_50='%s'" % blob("default","user:ukm",M,"50",D50,IV))
print("KAT_E32='%s'" % blob("enc32","user:ukm",M,"32",D32,IV))
# short user master (3 bytes): zero-padded derivation input
print("KAT_SHORT='%s'" % blob("default","user:short",b"abc","20",bytes(20),IV))

#!/usr/bin/env python3
# Writes number-reading-vectors.json beside this script: fallback-format.md §2.1 implemented from
# the contract's words with Python floats (IEEE 754 doubles, correctly rounded int -> float and
# "1eK" literals), independently of the Swift reader the vectors test. Run: python3 make-number-reading-vectors.py
import struct, re, os
U64 = 2**64 - 1
I32MAX = 2**31 - 1
POW = [float('1e%d' % k) for k in range(309)]
def sdk(tok):
    m = re.fullmatch(r'(-?)(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?)(\d+))?', tok)
    assert m, tok
    neg, ip, fp, es, ed = m.groups()
    sig = 0; exp = 0
    for ch in ip:
        d = int(ch)
        if exp > 0 or sig * 10 + d > U64: exp += 1
        else: sig = sig * 10 + d
    if fp is not None:
        for ch in fp:
            d = int(ch)
            if sig * 10 + d > U64: break
            sig = sig * 10 + d; exp -= 1
    if fp is None and ed is None and exp == 0:
        if not neg: return ('u', sig)
        if 1 <= sig <= 2**63: return ('i', -sig)
        f = -float(sig); return ('f', f)
    if ed is not None:
        e = int(ed)
        if e > I32MAX:
            if sig != 0 and es != '-': return ('overflow',)
            return ('f', -0.0 if neg else 0.0)
        exp = exp + e if es != '-' else exp - e
        exp = max(-2**31, min(I32MAX, exp))
    f = float(sig)
    while True:
        if abs(exp) <= 308:
            if exp >= 0:
                f *= POW[exp]
                if f == float('inf'): return ('overflow',)
            else:
                f /= POW[-exp]
            break
        if f == 0: break
        if exp > 0: return ('overflow',)
        f /= 1e308; exp += 308
    return ('f', -f if neg else f)
def bits(x): return struct.unpack('>Q', struct.pack('>d', x))[0]
def value(tok):
    r = sdk(tok)
    if r[0] in 'ui': return float(r[1])
    if r[0] == 'f': return r[1]
    return None
import json, hashlib, math
def rnd(x): return math.floor(abs(x)+0.5)*(1 if x>=0 else -1)
tokens = [
 # integers and the 64-bit boundaries
 "0", "-0", "1", "-1", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
 "18446744073709551615", "18446744073709551616", "-18446744073709551615", "-18446744073709551616",
 "184467440737095516150", "18446744073709551616.0", "123456789012345678901234567890",
 # -0 spelled as floats
 "-0.0", "-0e0", "0.0", "1.0", "1e0", "10E-1", "3.0", "1e2",
 # overflow and underflow
 "1e400", "-1e400", "1e308", "1.7976931348623157e308", "1.7976931348623158e308", "-1.7976931348623158e308",
 "17976931348623158e292", "179769313486231580000e288", "1e-400", "-1e-400", "4.9e-324", "2.4e-324", "2.5e-324", "1e-323",
 "123456789e-330", "1e-308", "1e-309", "0.1e-307",
 # exponents past 2^31 - 1
 "1e2147483647", "1e2147483648", "0e2147483648", "1e-2147483648", "1e-2147483649", "0e99999999999999999999", "1e-99999999999999999999",
 "1e+2147483648", "0.0e2147483648", "1e0000000000000000000001", "-1e2147483648",
 # many fraction digits
 "0.3333333333333333333333333333", "0.1000000000000000055511151231257827", "0.30000000000000004", "0.24628194821993518",
 "0.00474395755131373537", "1.00000000000000000000000000000000000001",
 # step by step differs from correctly rounded
 "1e-23", "3e23", "0.00015000000000000001", "0.0002499999999999999753886107",
 # plain weights
 "0.1", "0.3", "0.5", "0.25", "0.00025", "0.99975", "0.33", "0.34",
 # every weight of bucketing-vectors.json (bucketing.test.js draws them with these values)
 "0.01", "0.7", "0.9", "0.99",
]
for ws in ["0.00015000000000000001 0.99985", "0.0002499999999999999753886107 0.9997500000000000246113893",
           "0.3333333333333333333333333333 0.3333333333333333333333333334 1e-23 1"]:
    for w in ws.split():
        if w not in tokens: tokens.append(w)
nums = []
for t in tokens:
    r = sdk(t)
    e = {"token": t}
    if r[0] == 'u': e["reading"] = "unsignedInteger"; e["integer"] = str(r[1])
    elif r[0] == 'i': e["reading"] = "negativeInteger"; e["integer"] = str(r[1])
    elif r[0] == 'f': e["reading"] = "float"
    else: e["reading"] = "outOfRange"
    if r[0] != 'overflow':
        v = value(t)
        e["bits"] = "%016x" % bits(v)
        e["siteWeight"] = repr(v)
        try:
            c = float(t)
            e["correctlyRounded"] = "%016x" % bits(c) if not math.isinf(c) else "inf"
        except OverflowError:
            e["correctlyRounded"] = "inf"
    nums.append(e)
def bucket(sub, key):
    return int.from_bytes(hashlib.sha256((sub + ":" + key).encode()).digest()[:4], 'big') % 10000
def subscriber_for(target, key):
    i = 0
    while True:
        s = "rov_" + ("%024d" % i)
        if bucket(s, key) == target: return s
        i += 1
def draw(weights, b):
    cum = 0.0
    for i, w in enumerate(weights):
        cum += w * 10000
        if b < rnd(cum): return i
    return len(weights) - 1
draws = []
for ws, b in [(["0.00015000000000000001", "0.99985"], 1), (["0.0002499999999999999753886107", "0.9997500000000000246113893"], 2),
              (["0.3333333333333333333333333333", "0.3333333333333333333333333333", "0.3333333333333333333333333334"], 6666),
              (["1e-23", "1"], 0)]:
    key = "exp-step-by-step"
    sub = subscriber_for(b, key)
    sdkw = [value(w) for w in ws]; cw = [float(w) for w in ws]
    draws.append({"subscriberId": sub, "key": key, "bucket": b, "weights": ws, "siteWeights": [repr(v) for v in sdkw],
                  "variant": draw(sdkw, b), "variantIfCorrectlyRounded": draw(cw, b)})
out = {"about": "fallback-format.md §2.1: number tokens as the SDK's parser reads them (serde_json 1.0, step by step, not correctly rounded). reading: unsignedInteger | negativeInteger | float | outOfRange; bits: the IEEE 754 bit pattern of the value (an integer converted to the nearest double); correctlyRounded: what a correctly rounded parse (JSON.parse, Swift's Double(text)) gives; siteWeight: the value as the site writes it in data-weight (shortest round-tripping text). draws: the §5 draw with those weights (variant: the SDK's, variantIfCorrectlyRounded: what a correctly rounded reading would draw). Generated by make-number-reading-vectors.py (an independent reference of §2.1 with Python floats), not by the Swift code under test.",
       "numbers": nums, "draws": draws}
lines = ['{', ' "about": ' + json.dumps(out["about"], ensure_ascii=False) + ',', ' "numbers": [']
lines += ['  ' + json.dumps(n) + (',' if i < len(nums)-1 else '') for i, n in enumerate(nums)]
lines += [' ],', ' "draws": [']
lines += ['  ' + json.dumps(d) + (',' if i < len(draws)-1 else '') for i, d in enumerate(draws)]
lines += [' ]', '}']
open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'number-reading-vectors.json'), 'w').write('\n'.join(lines) + '\n')

import subprocess
import sys

import mmh3
from hypothesis import given, settings
from hypothesis import strategies as st

from simdup_gui.core.scan.features import extract
from simdup_gui.core.scan.simhash import simhash128

from tests.conftest import EN, ZH


def reference_hash(name: str) -> int:
    """A feature's mmh3 128 as an int: a word's of its UTF-8 bytes, a pair's ("a\x1fb") of
    the 32 bytes of its words' hashes."""
    a, sep, b = name.partition("\x1f")
    if sep:
        raw = mmh3.hash_bytes(a.encode("utf-8"), 0) + mmh3.hash_bytes(b.encode("utf-8"), 0)
    else:
        raw = name.encode("utf-8")
    return mmh3.hash128(raw, 0, signed=False)


def reference_simhash(names, weights, bits):
    """Textbook SimHash over the low ``bits`` bits of each feature's mmh3 hash."""
    v = [0] * bits
    for n, w in zip(names, weights):
        h = reference_hash(n)
        wi = round(w * 1024)
        for i in range(bits):
            v[i] += wi if (h >> i) & 1 else -wi
    return sum(1 << i for i in range(bits) if v[i] > 0)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.text(min_size=1, max_size=6)
                          | st.builds(lambda a, b: a + "\x1f" + b, st.text(max_size=4),
                                      st.text(max_size=4)),
                          st.floats(0.1, 20.0)), min_size=1,
                max_size=40, unique_by=lambda t: t[0]))
def test_every_size_is_the_low_bits_of_the_128_bit_fingerprint(features):
    names = [n for n, _ in features]
    weights = [w for _, w in features]
    fp128 = simhash128(names, weights)
    for bits in (16, 32, 64, 128):
        assert reference_simhash(names, weights, bits) == fp128 & ((1 << bits) - 1)


def test_fingerprint_is_the_same_in_another_process():
    code = ("from simdup_gui.core.scan.features import extract;from simdup_gui.core.scan.simhash import "
            "simhash128;import sys;f=extract(sys.stdin.read());print(simhash128(f.names,f.weights))")
    text = ZH + EN
    out = subprocess.run([sys.executable, "-c", code], input=text, capture_output=True,
                         text=True, check=True).stdout.strip()
    f = extract(text)
    assert int(out) == simhash128(f.names, f.weights)


def test_similar_texts_are_close_and_different_texts_far():
    a = extract(EN)
    b = extract(EN.replace("five places", "six places"))
    c = extract(ZH)
    m64 = (1 << 64) - 1
    fa, fb, fc = (simhash128(x.names, x.weights) & m64 for x in (a, b, c))
    assert (fa ^ fb).bit_count() <= 10
    assert (fa ^ fc).bit_count() >= 20


def test_injected_hash_function_is_used():
    def zero_hash(data: bytes) -> bytes:
        return b"\x00" * 16

    assert simhash128(["a", "b"], [1.0, 2.0], zero_hash) == 0
    assert simhash128(["a"], [1.0], lambda d: b"\xff" * 16) == (1 << 128) - 1

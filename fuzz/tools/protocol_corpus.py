#!/usr/bin/env python3
"""fuzz/tools/protocol_corpus.py — writes the seed corpus of fuzz_protocol.

An input of fuzz_protocol is what a client sends after the WebSocket
handshake: frames, masked as RFC 6455 requires.  The seeds mask with the
key 00 00 00 00, so their JSON reads as is in the files and libFuzzer's
mutations of it stay valid frames.  Each seed is a file of
fuzz/corpus/fuzz_protocol/; the messages of older seeds (raw JSON, named
*.json) are wrapped as one text frame each.

    python3 fuzz/tools/protocol_corpus.py      # from the repository root
"""
import os
import struct

OUT = os.path.join(os.path.dirname(__file__), '..', 'corpus', 'fuzz_protocol')


def frame(op, payload, fin=True, declared=None, masked=True):
    n = len(payload) if declared is None else declared
    b0 = (0x80 if fin else 0) | op
    m = 0x80 if masked else 0
    if n < 126:
        head = bytes([b0, m | n])
    elif n < 65536:
        head = bytes([b0, m | 126]) + struct.pack('>H', n)
    else:
        head = bytes([b0, m | 127]) + struct.pack('>Q', n)
    return head + (b'\0\0\0\0' if masked else b'') + payload


def text(s):
    return frame(1, s if isinstance(s, bytes) else s.encode())


def main():
    seeds = {}
    # the parser's old seeds: one message each, now one frame each
    for name in sorted(os.listdir(OUT)):
        path = os.path.join(OUT, name)
        if name.endswith('.json'):
            with open(path, 'rb') as f:
                seeds[name[:-5] + '.ws'] = text(f.read())
            os.remove(path)
    hello = b'{"v":1,"type":"hello","id":1}'
    seeds['deep_arrays.ws'] = text(b'{"v":1,"type":"hello","id":1,"x":' + b'[' * 1000 +
                                   b']' * 1000 + b'}') + text(hello)
    seeds['deep_objects.ws'] = text(b'{"v":1,"type":"hello","id":2,"x":' + b'{"a":' * 1000 +
                                    b'1' + b'}' * 1000 + b'}')
    seeds['depth_32.ws'] = text(b'{"v":1,"type":"hello","id":3,"x":' + b'[' * 31 + b']' * 31 +
                                b'}')
    seeds['big_id.ws'] = text(b'{"v":1,"type":"hello","id":18446744073709551616}')
    seeds['big_decision.ws'] = text(
        b'{"v":1,"type":"act","id":5,"decision":99999999999999999999,"action":1}')
    seeds['big_clock.ws'] = text(
        b'{"v":1,"type":"create","id":6,"game":"dml","seats":["human","human"],'
        b'"clock":{"initial_ms":-9223372036854775809,"increment_ms":0}}')
    seeds['truncated_id.ws'] = text(b'{"v":1,"type":"hello","id":7,')
    seeds['long_string.ws'] = text(b'{"v":1,"type":"act","id":8,"decision":1,"text":"' +
                                   b'x' * 16000 + b'"}')
    seeds['fragments.ws'] = frame(1, hello[:10], fin=False) + frame(0, hello[10:20], fin=False) + \
        frame(9, b'ping between') + frame(0, hello[20:])
    seeds['ping_pong.ws'] = frame(9, b'abc') + frame(10, b'') + text(hello)
    seeds['ping_126.ws'] = frame(9, b'p' * 126)
    seeds['unmasked.ws'] = frame(1, hello, masked=False)
    seeds['huge_header.ws'] = frame(1, b'', declared=100_000_000)
    seeds['max_header.ws'] = bytes([0x81, 0xff]) + struct.pack('>Q', (1 << 63) - 1)
    seeds['close.ws'] = text(hello) + frame(8, b'\x03\xe8bye') + text(hello)
    seeds['binary.ws'] = frame(2, b'\x00\x01')
    seeds['create_sit_act.ws'] = text(
        b'{"v":1,"type":"create","id":9,"game":"dml","seats":["human","human","human"],'
        b'"sit":0}') + text(b'{"v":1,"type":"act","id":10,"decision":1,"action":0}') + \
        text(b'{"v":1,"type":"history","id":11,"since":0}')
    for name, data in seeds.items():
        with open(os.path.join(OUT, name), 'wb') as f:
            f.write(data)


if __name__ == '__main__':
    main()

"""Schemathesis hooks for .ci/fuzz (SCHEMATHESIS_HOOKS=fuzz_hooks).

Generated client order ids are short and repeat ("0", "A", ...), so nearly every placement after the
first is a repeat (200) or a conflict (409) and new orders (201, 202) are rare. Two of three
well-formed ids get a unique suffix, still within the documented pattern; the third is left as
generated, so repeats and conflicts are still reached. Ids that are not well formed are not touched.
"""
import itertools
import re

import schemathesis

_CLIENT_ORDER_ID = re.compile(r"[!-~]{1,64}")
_counter = itertools.count()


@schemathesis.hook
def map_body(ctx, body):
    if isinstance(body, dict) and isinstance(body.get("clientOrderId"), str) \
            and _CLIENT_ORDER_ID.fullmatch(body["clientOrderId"]):
        n = next(_counter)
        if n % 3:
            suffix = "-" + str(n)
            body["clientOrderId"] = body["clientOrderId"][:64 - len(suffix)] + suffix
    return body

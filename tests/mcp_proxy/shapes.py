"""Arguments for the `mcp-proxy` tests: values of an original tool schema, and the shape a model
sends them in under the provider's schema the proxy listed.

- `instance(schema, mode)`: a value the original schema accepts, made from what it says (`type`,
  `properties`, `required`, `items`, `enum`, `const`, unions, `$ref`, bounds, lengths, formats,
  the patterns the corpus uses); `"min"` leaves out every optional property, `"full"` sends them
  all. Untyped positions get an object. The tests check each with a real validator.
- `encode(value, provider)`: the arguments a model sends for `value` under the provider's schema,
  read from that schema alone, as a model reads it: `null` for an absent property the provider
  demands, a list of `{"key", "value"}` entries where a map was, JSON text where the provider asks
  for a string and the value is not one.
- `loosen(sent, provider)`: what a model without strict mode sends instead: each argument the
  provider declares as an array, object, number or boolean written as text (JSON text, `"3"`,
  `"true"`).
- `validator(schema)`: a jsonschema validator for a JSON Schema dialect's output, or for Gemini's
  OpenAPI output read as JSON Schema (`nullable` as a `null` type).
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import jsonschema

# Strings that satisfy the corpus's patterns and formats; each pattern takes the first that matches.
CANDIDATES = ["7d", "US", "example.com", "abc", "x"]
FORMATS = {
    "date-time": "2024-05-06T07:08:09Z",
    "date": "2024-05-06",
    "uri": "https://example.com/a",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "email": "a@example.com",
}
UNTYPED = {"k": [1, "two"]}


def is_null(s: Any) -> bool:
    return isinstance(s, dict) and s.get("type") == "null"


def resolve(root: Any, ref: str) -> Any:
    node = root
    for token in ref.lstrip("#").split("/")[1:]:
        node = node[token.replace("~1", "/").replace("~0", "~")]
    return node


def types_of(s: dict[str, Any]) -> list[str]:
    t = s.get("type")
    names = [t] if isinstance(t, str) else list(t) if isinstance(t, list) else []
    names = [n.lower() for n in names]
    if s.get("nullable") and "null" not in names:
        names.append("null")
    return names


def instance(s: Any, root: Any, mode: str, depth: int = 0) -> Any:
    if not isinstance(s, dict) or depth > 24:
        return copy.deepcopy(UNTYPED)
    if "$ref" in s:
        return instance(resolve(root, s["$ref"]), root, mode, depth + 1)
    if "const" in s:
        return s["const"]
    if "enum" in s:
        values = [v for v in s["enum"] if v is not None] or s["enum"]
        return values[0] if mode == "min" else values[-1]
    for k in ("anyOf", "oneOf"):
        if k in s:
            real = [b for b in s[k] if not is_null(b)]
            branch = real[0] if mode == "min" else real[-1]
            # The keywords beside the union apply too (`type: string` beside `anyOf` of formats).
            beside = {key: v for key, v in s.items() if key not in ("anyOf", "oneOf", "description")}
            return instance({**beside, **branch}, root, mode, depth + 1)
    if "allOf" in s:
        merged = {k: v for k, v in s.items() if k != "allOf"}
        for member in s["allOf"]:
            member = resolve(root, member["$ref"]) if "$ref" in member else member
            for k, v in member.items():
                if k == "properties":
                    merged.setdefault("properties", {}).update(v)
                elif k == "required":
                    merged["required"] = sorted(set(merged.get("required", [])) | set(v))
                else:
                    merged.setdefault(k, v)
        return instance(merged, root, mode, depth + 1)
    names = [n for n in types_of(s) if n != "null"] or (
        ["object"] if "properties" in s else ["array"] if "items" in s else []
    )
    if not names:
        return None if types_of(s) == ["null"] else copy.deepcopy(UNTYPED)
    t = names[0]
    if t in ("object", "dict"):
        props = s.get("properties", {})
        required = s.get("required", [])
        keys = [k for k in props if mode == "full" or k in required]
        out = {k: instance(props[k], root, mode, depth + 1) for k in keys}
        for k in required:
            out.setdefault(k, copy.deepcopy(UNTYPED))
        extra = s.get("additionalProperties")
        if mode == "full" and not props and isinstance(extra, dict):
            out["extra"] = instance(extra, root, mode, depth + 1)
        return out
    if t in ("array", "tuple"):
        n = max(s.get("minItems", 0), 0 if mode == "min" else 1)
        n = min(n, s.get("maxItems", n))
        items = [instance(s.get("items", {}), root, mode, depth + 1) for _ in range(n)]
        if s.get("uniqueItems") and n > 1:
            items = [{"i": i} if isinstance(x, dict) else x for i, x in enumerate(items)]
        return items
    if t == "string":
        if "format" in s and s["format"] in FORMATS:
            return FORMATS[s["format"]]
        if "pattern" in s:
            return next((c for c in CANDIDATES if re.search(s["pattern"], c)), "x")
        text = "x" if mode == "min" else "some text"
        text = text.ljust(s.get("minLength", 0), "x")
        return text[: s.get("maxLength", len(text))]
    if t in ("integer", "number", "float"):
        lo = s.get("minimum", s.get("exclusiveMinimum", -1) + 1 if "exclusiveMinimum" in s else 0)
        hi = s.get("maximum", s.get("exclusiveMaximum", lo + 10) - 1 if "exclusiveMaximum" in s else lo + 10)
        value = lo if mode == "min" else min(lo + 1, hi)
        if t != "integer" and mode == "full" and value + 0.5 <= hi:
            return value + 0.5
        return int(value) if t == "integer" else value
    if t == "boolean":
        return mode == "full"
    return None


def json_type(v: Any) -> str:
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    return {dict: "object", list: "array", str: "string", float: "number"}.get(type(v), "null")


def is_entries(p: dict[str, Any]) -> bool:
    items = p.get("items")
    return (
        isinstance(items, dict)
        and set(items.get("properties", {})) == {"key", "value"}
        and set(items.get("required", [])) == {"key", "value"}
    )


def encode(v: Any, p: Any) -> Any:
    if not isinstance(p, dict) or v is None:
        return v
    for k in ("anyOf", "oneOf"):
        if k in p:
            real = [b for b in p[k] if not is_null(b)]
            # A branch of the value's own type first: a string branch takes anything as JSON text.
            real.sort(key=lambda b: declared(b) != json_type(v))
            for branch in real:
                sent = encode(v, branch)
                if validator(branch).is_valid(sent):
                    return sent
            return v
    names = types_of(p)
    if "string" in names and not isinstance(v, str):
        return json.dumps(v, separators=(",", ":"))
    if "array" in names and isinstance(v, dict) and is_entries(p):
        value = p["items"]["properties"]["value"]
        return [{"key": k, "value": encode(x, value)} for k, x in v.items()]
    if isinstance(v, dict):
        props = p.get("properties", {})
        extra = p.get("additionalProperties")
        out = {k: encode(x, props.get(k, extra)) for k, x in v.items()}
        for k in p.get("required", []):
            out.setdefault(k, None)
        return out
    if isinstance(v, list):
        return [encode(x, p.get("items")) for x in v]
    return v


def declared(p: Any) -> str | None:
    """The one type a provider schema declares (besides `null`), as `declared_type` reads it."""
    if not isinstance(p, dict):
        return None
    real = [n for n in types_of(p) if n != "null"]
    if real:
        return real[0] if len(real) == 1 else None
    for k in ("anyOf", "oneOf"):
        if k in p:
            members = [b for b in p[k] if not is_null(b)]
            return declared(members[0]) if len(members) == 1 else None
    return None


def loosen(sent: dict[str, Any], provider: dict[str, Any]) -> dict[str, Any]:
    """Each argument whose provider schema declares an array, object, number, integer or boolean,
    written as text: JSON text, `"3"`, `"true"`."""
    out = {}
    for k, v in sent.items():
        t = declared(provider.get("properties", {}).get(k))
        if v is not None and t in ("array", "object", "number", "integer", "boolean"):
            out[k] = json.dumps(v, separators=(",", ":"))
        else:
            out[k] = v
    return out


def openapi_as_json_schema(s: Any) -> Any:
    if isinstance(s, list):
        return [openapi_as_json_schema(x) for x in s]
    if not isinstance(s, dict):
        return s
    out = {k: openapi_as_json_schema(v) if k not in ("enum", "default", "example") else v for k, v in s.items()}
    if "properties" in s:
        out["properties"] = {k: openapi_as_json_schema(v) for k, v in s["properties"].items()}
    if isinstance(out.get("type"), str):
        out["type"] = out["type"].lower()
    if out.pop("nullable", False):
        if "type" in out:
            out["type"] = [out["type"], "null"]
        if "enum" in out:
            out["enum"] = [*out["enum"], None]
        if "anyOf" in out:
            out["anyOf"] = [*out["anyOf"], {"type": "null"}]
    out.pop("propertyOrdering", None)
    return out


def validator(schema: Any, openapi: bool = False, formats: bool = False) -> Any:
    if openapi:
        schema = openapi_as_json_schema(schema)
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    return cls(schema, format_checker=cls.FORMAT_CHECKER if formats else None)

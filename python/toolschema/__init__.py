"""The exact JSON Schema an LLM is told, on toolschema's Rust core.

Foreign schemas (a drop-in for PyPI ``3tears-tool-schema``)::

    from toolschema import self_contained_input_schema, declared_type

    flat = self_contained_input_schema(Storyboard.model_json_schema(), tool_name="storyboard")
    declared_type(schema["properties"]["shots"], schema)  # "array"

Schemas from Python types and callables, normalised, adapted to a provider, hashed::

    from toolschema import schema_for

    s = schema_for(lookup, dialect="openai-strict", exclude=("ctx",))
    s.schema, s.canonical_json, s.hash, s.doc_warnings, s.adaptations

A provider dialect writes what the provider cannot say in a form it can (an optional field as
required with ``null``, a map as ``{"key", "value"}`` entries, any value as JSON text, a bound
as words in the description); ``restore`` maps the model's arguments back, and an
``ArgumentsError`` is written to be handed back to the model::

    t = schema_for(Itinerary, dialect="openai-strict")  # t.schema is what the model is told
    try:
        args = Itinerary.model_validate(t.restore(json.loads(call.arguments)))
    except ArgumentsError as exc:
        reply = str(exc)  # every fault with its pointer, for the model to correct its call

Every function but ``schema_for`` is the Rust library's function of the same name
(``toolschema._native``); ``schema_for`` collects a Python type's or callable's JSON Schema with
pydantic (imported only then) and hands it to ``normalize``. Every error is a
``ToolSchemaError``, a ``ValueError``.
"""

from __future__ import annotations

import difflib
import functools
import inspect
import re
import typing
import warnings
from typing import Any, Callable, Iterable, Protocol, Union, runtime_checkable

from ._native import (
    DIALECTS,
    MAX_NESTING,
    Adaptation,
    ArgumentsError,
    CapabilityError,
    ConversionError,
    DocWarning,
    ForeignSchemaError,
    RenamedKey,
    SchemaGenerationError,
    ToolSchema,
    ToolSchemaError,
    __version__,
    canonical_json,
    declared_type,
    declared_types,
    normalize,
    restore,
    schema_hash,
    self_contained_input_schema,
    validate,
)

__all__ = [
    "DIALECTS",
    "MAX_NESTING",
    "Adaptation",
    "ArgumentsError",
    "CapabilityError",
    "ConversionError",
    "DocWarning",
    "ForeignSchemaError",
    "RenamedKey",
    "SchemaGenerationError",
    "ToolSchema",
    "ToolSchemaError",
    "__version__",
    "SchemaDialect",
    "annotations_of",
    "canonical_json",
    "declared_type",
    "declared_types",
    "normalize",
    "restore",
    "schema_for",
    "schema_hash",
    "self_contained_input_schema",
    "validate",
]


@runtime_checkable
class SchemaDialect(Protocol):
    """A dialect of your own: anything with a ``name``, a ``forbidden`` set of schema keywords and
    an ``adapt``. ``schema_for``, ``normalize`` and ``restore`` take one wherever they take a
    dialect's name.

    ``adapt`` gets the normalised schema (a new dict) and returns the schema the provider is told;
    then every schema position of that is checked for the ``forbidden`` keywords, each one found a
    ``CapabilityError`` naming the dialect, the keyword and where it appeared. The name is part of
    the hash (it may not be a built-in's). Such a dialect has no restore plan: ``restore`` only
    turns integral floats into integers where one is declared, so ``adapt`` should tighten or
    restructure, never change the shape of a value::

        @dataclass(frozen=True)
        class NoUnions:
            name: str = "no-unions"
            forbidden: frozenset[str] = frozenset({"anyOf"})

            def adapt(self, schema: dict[str, Any]) -> dict[str, Any]:
                return schema
    """

    @property
    def name(self) -> str: ...

    @property
    def forbidden(self) -> Iterable[str]: ...

    def adapt(self, schema: dict[str, Any]) -> Any: ...


def schema_for(
    obj: Any,
    *,
    dialect: Union[str, SchemaDialect] = "json-schema",
    exclude: Iterable[str] = (),
    max_bytes: int | None = None,
    exact: bool = False,
    recursion_depth: int = 2,
) -> ToolSchema:
    """The normalised JSON Schema of a Python type or callable, with its canonical JSON and hash.

    A pydantic model, a dataclass, a ``TypedDict`` or any type pydantic can describe
    (``list[str]``, ``int | None``, ...) is described by ``pydantic.TypeAdapter(obj).json_schema()``
    (validation mode: what the code parses). A callable (function, method, ``functools.partial``,
    an object with ``__call__``) is described by its parameters: each needs an annotation,
    ``*args`` and ``**kwargs`` are refused, a parameter with a default is optional, and extra
    arguments are refused (``additionalProperties: false``: the call would fail on them). Its
    docstring's summary becomes the description and its ``Args:`` entries land on the parameters.
    Either way the schema then goes through ``normalize``: titles dropped, keys ordered,
    ``required`` sorted, untyped required values refused, then the dialect.

    ``properties`` keep the order the type declares them (field order, parameter order): providers
    generate arguments in that order, so a model reasons before it answers where the type says so.
    Every other key is sorted; ``canonical_json`` and ``hash`` sort every key (RFC 8785), so the
    order does not change the hash. A docstring describes a callable with its prose before the first
    section (``Returns:``, ``Raises:``, ``Example:``, ... are not for the model); a
    ``functools.partial`` is described by the function it wraps, its bound parameters left out as
    excluded ones are; a callable object by its class's docstring, or its ``__call__``'s when the
    class has none of its own.

    Args:
        obj: The type or callable.
        dialect: A dialect name (``DIALECTS``), e.g. ``"openai-strict"``, or a dialect of your
            own (``SchemaDialect``).
        exclude: Parameters (or root properties) the caller injects: not described, so a model
            cannot set them. Each must exist.
        max_bytes: Refuse a schema whose canonical bytes are longer than this.
        exact: Refuse (``CapabilityError``) what the dialect could only write with an encoding
            that ``ToolSchema.restore`` undoes: an optional field where the provider demands
            every field, a ``dict[str, X]`` where it has no maps, a bound it does not enforce.
            The default writes them, and the model's arguments then go through ``restore``.
            Part of the hash.
        recursion_depth: Where the provider takes no recursion (``anthropic-strict``,
            ``gemini``, ``openai-agents-mcp``, ``outlines``; a cycle through required fields under
            ``gemini-json-schema``): how many levels a recursive model is written out past its
            first appearance; deeper levels are sent as JSON text that ``restore`` checks
            against the original model's schema.

    Returns:
        A ``ToolSchema``: ``.schema`` (dict), ``.canonical_json`` (str), ``.hash``
        (``"sha256:..."``), ``.doc_warnings`` (``Args:`` entries that named no parameter),
        ``.adaptations`` (what the dialect wrote differently), ``.restore(arguments)``.

    Raises:
        SchemaGenerationError: a parameter without an annotation, ``*args``/``**kwargs``, a type
            pydantic cannot describe, pydantic missing, an untyped required value, an unknown
            ``exclude`` name, a schema over ``max_bytes``; ``field`` names the parameter or field.
        CapabilityError: the dialect cannot express the schema.
        ValueError: ``max_bytes`` is not a whole number of bytes.
    """
    name = _name_of(obj)
    excluded = tuple(_names(exclude))
    if _is_callable_tool(obj):
        bound = _bound_keywords(obj)
        schema = _callable_schema(obj, name, excluded + bound)
        excluded = excluded + tuple(b for b in bound if b not in excluded)
    else:
        schema = _type_schema(obj, name)
    return normalize(
        schema,
        dialect=dialect,
        exclude=excluded,
        max_bytes=max_bytes,
        name=name,
        exact=exact,
        recursion_depth=recursion_depth,
        advice="python",
    )


def annotations_of(obj: Callable[..., Any]) -> dict[str, Any]:
    """The resolved annotations ``schema_for`` reads from a callable.

    ``typing.get_type_hints(obj, include_extras=True)``; for a ``functools.partial``, those of the
    function it wraps; for an object with ``__call__`` (which ``get_type_hints`` refuses), those
    of its ``__call__``.

    Args:
        obj: A callable.

    Returns:
        Parameter name to annotation (and ``"return"`` if annotated).
    """
    target = _unwrap_partial(obj)
    try:
        return typing.get_type_hints(target, include_extras=True)
    except TypeError:
        call = getattr(type(target), "__call__", None)  # noqa: B004 (the method itself is wanted)
        if call is None:
            raise
        return typing.get_type_hints(call, include_extras=True)


def _unwrap_partial(obj: Any) -> Any:
    """The function a ``functools.partial`` (of a partial ...) wraps; ``obj`` itself otherwise."""
    while isinstance(obj, functools.partial):
        obj = obj.func
    return obj


def _bound_keywords(obj: Any) -> tuple[str, ...]:
    """The parameters a ``functools.partial`` binds by keyword (its positional ones are gone from
    its signature already): not the model's to choose, so excluded as injected ones are."""
    bound: list[str] = []
    while isinstance(obj, functools.partial):
        bound.extend(k for k in obj.keywords if k not in bound)
        obj = obj.func
    return tuple(bound)


#: A Google-style section header: the sections a docstring may hold after its prose.
_SECTION = re.compile(
    r"^(Args|Arguments|Fields|Attributes|Parameters|Params|Keyword Args|Keyword Arguments|Other Parameters|"
    r"Returns?|Raises|Yields?|Examples?|Notes?|Warnings?|Warns|See Also|References|Todo|Methods):\s*$"
)

#: The sections the pipeline lands on the properties: every other section is left out.
_FIELD_SECTIONS = ("Args:", "Arguments:", "Fields:", "Attributes:")


#: A numpy-style section's underline (``Parameters`` then ``----------``).
_NUMPY_UNDERLINE = re.compile(r"^-{3,}\s*$")

#: numpy-style section titles, by the Google-style header they stand for: the field sections
#: become ``Args:``/``Attributes:``, any other title a section that is left out.
_NUMPY_FIELDS = {
    "Parameters": "Args:",
    "Params": "Args:",
    "Arguments": "Args:",
    "Args": "Args:",
    "Other Parameters": "Args:",
    "Keyword Arguments": "Args:",
    "Fields": "Args:",
    "Attributes": "Attributes:",
}

#: A reST (Sphinx) field: ``:param x: text``, ``:param int x: text``, ``:ivar x: text``,
#: ``:returns: text``, ``:raises ValueError: text``, ``:type x: int``.
_REST_FIELD = re.compile(r"^:([A-Za-z]+)((?:\s+[^:]+)?):(?:\s+(.*))?$")

#: reST field names, by the Google-style header their entries go under; a field not listed here
#: (``returns``, ``rtype``, ``raises``, ``type``, ``meta``, ...) is left out.
_REST_FIELDS = {
    "param": "Args:",
    "parameter": "Args:",
    "arg": "Args:",
    "argument": "Args:",
    "key": "Args:",
    "keyword": "Args:",
    "ivar": "Attributes:",
    "var": "Attributes:",
    "cvar": "Attributes:",
}


def _google_entry(names: str, text: list[str]) -> list[str]:
    """A field entry in the Google form the pipeline reads: ``    name: text`` with its further
    lines indented below; ``x, y`` gives an entry each, ``*args`` is named ``args``."""
    lines = [t.strip() for t in text]
    while lines and not lines[-1]:
        lines.pop()
    out: list[str] = []
    for name in (n.strip().lstrip("*") for n in names.split(",")):
        if not name:
            continue
        first = lines[0] if lines else ""
        out.append(f"    {name}: {first}".rstrip())
        out.extend(f"        {t}" if t else "" for t in lines[1:])
    return out


def _as_google(text: str) -> str:
    """A docstring with its numpy-style sections (a title underlined by dashes) and its reST
    field lists (``:param x: ...``) rewritten in the Google style the rest of the reading (and the
    pipeline's merge-docs pass) understands; a Google-style docstring comes back unchanged."""
    lines = inspect.cleandoc(text).splitlines()
    out: list[str] = []
    # reST fields, gathered by section and written after the prose in one block each.
    rest: dict[str, list[str]] = {}
    i = 0
    while i < len(lines):
        line = lines[i]
        title = line.strip()
        underline = lines[i + 1] if i + 1 < len(lines) else ""
        if line and not line[0].isspace() and title and _NUMPY_UNDERLINE.match(underline):
            header = _NUMPY_FIELDS.get(title)
            i += 2
            if header is None:
                # A section about the code (Returns, Raises, Examples, Notes, ...): left out.
                out.append("Notes:" if not _SECTION.match(title + ":") else title + ":")
                while i < len(lines) and not (
                    lines[i][:1].strip() and i + 1 < len(lines) and _NUMPY_UNDERLINE.match(lines[i + 1])
                ):
                    out.append("    " + lines[i] if lines[i] else "")
                    i += 1
                continue
            out.append(header)
            # Entries: `name : type` (or `name`) at the section's margin, the text indented.
            while i < len(lines):
                entry = lines[i]
                if entry[:1].strip() and i + 1 < len(lines) and _NUMPY_UNDERLINE.match(lines[i + 1]):
                    break
                if not entry.strip():
                    i += 1
                    continue
                if entry[:1].isspace():
                    # Text with no entry above it: kept, so the pass reports it.
                    out.append("    " + entry.strip())
                    i += 1
                    continue
                names = entry.split(":", 1)[0]
                i += 1
                body: list[str] = []
                while i < len(lines) and (not lines[i].strip() or lines[i][:1].isspace()):
                    body.append(lines[i])
                    i += 1
                out.extend(_google_entry(names, body))
            continue
        field = _REST_FIELD.match(line) if line[:1] == ":" else None
        if field:
            kind, args, first = field.group(1).lower(), (field.group(2) or "").split(), field.group(3) or ""
            i += 1
            body = [first]
            while i < len(lines) and lines[i][:1].isspace() and lines[i].strip():
                body.append(lines[i])
                i += 1
            header = _REST_FIELDS.get(kind)
            if header is not None and args:
                rest.setdefault(header, []).extend(_google_entry(args[-1], body))
            continue
        out.append(line)
        i += 1
    for header, entries in sorted(rest.items()):
        while out and not out[-1].strip():
            out.pop()
        out.extend(["", header, *entries])
    return "\n".join(out)


def _tool_doc(doc: str | None, extra_fields: str | None = None) -> str | None:
    """A docstring as the model should read it: the prose before the first section, and the
    sections that describe the fields (``Args:``, ``Attributes:``, ...), which the pipeline lands
    on the properties. ``Returns:``, ``Raises:``, ``Yields:``, ``Example(s):``, ``Note(s):`` and
    the rest are about the code, not the arguments. Google, numpy and reST (Sphinx) styles are
    read alike. ``extra_fields``: another docstring whose field sections are added (a callable
    object's ``__call__``)."""
    prose: list[str] = []
    fields: list[str] = []
    for index, text in enumerate((doc, extra_fields)):
        if not text:
            continue
        section: str | None = None
        for line in _as_google(text).splitlines():
            stripped = line.strip()
            if line and not line[0].isspace() and _SECTION.match(stripped):
                section = stripped
                if section in _FIELD_SECTIONS:
                    fields.append("Args:" if section != "Attributes:" else section)
                continue
            if section is None:
                if index == 0:
                    prose.append(line)
            elif section in _FIELD_SECTIONS and (line[:1].isspace() or not stripped):
                fields.append(line)
            elif stripped and not line[:1].isspace():
                section = "?"  # prose after a section: not the summary
    summary = "\n".join(prose).strip()
    body = "\n".join(fields).rstrip()
    joined = "\n\n".join(part for part in (summary, body) if part)
    return joined or None


def _doc_of(fn: Any) -> str | None:
    """The docstring that describes a callable tool, cut to what the model should read."""
    target = _unwrap_partial(fn)
    if inspect.isroutine(target) or inspect.ismethod(target):
        return _tool_doc(inspect.getdoc(target))
    cls = type(target)
    call = getattr(cls, "__call__", None)  # noqa: B004 (the method itself is wanted)
    call_doc = inspect.getdoc(call) if call is not None else None
    # Written for the class itself (not inherited from `object` or a base it does not document).
    own = cls.__dict__.get("__doc__")
    if own:
        return _tool_doc(own, extra_fields=call_doc)
    return _tool_doc(call_doc)


def _names(exclude: Iterable[str]) -> list[str]:
    """The ``exclude`` names as a list; one ``str`` is refused (it would be read letter by letter)."""
    if isinstance(exclude, str):
        raise TypeError('exclude takes a collection of names, not one str: write exclude=("ctx",)')
    return list(exclude)


def _name_of(obj: Any) -> str:
    """The name errors use for ``obj``: its ``__name__``, a partial's function's, or its type's."""
    for attr in ("__name__", "__qualname__"):
        value = getattr(obj, attr, None)
        if isinstance(value, str):
            return value
    func = getattr(obj, "func", None)  # functools.partial
    if func is not None and callable(obj):
        return _name_of(func)
    return repr(obj) if not callable(obj) else type(obj).__name__


def _is_callable_tool(obj: Any) -> bool:
    """Whether ``obj`` is described by its parameters rather than as a type."""
    if isinstance(obj, type) or typing.get_origin(obj) is not None:
        return False  # a class, or a typing form such as list[str] (which is callable too)
    if inspect.isroutine(obj) or inspect.ismethod(obj):
        return True
    module = getattr(type(obj), "__module__", "")
    if module in ("typing", "typing_extensions", "types"):
        return False  # NewType, TypeVar, unions, Any, ...
    return callable(obj)


def _error(
    cls: type[ToolSchemaError],
    message: str,
    *,
    tool: str,
    kind: str,
    pointer: str | None = None,
    field: str | None = None,
) -> ToolSchemaError:
    """An exception of the hierarchy with its attributes set, as the native functions raise them."""
    err = cls(f"`{tool}`: {message}")
    err.tool = tool
    err.kind = kind
    err.pointer = pointer
    if field is not None:
        err.field = field  # type: ignore[attr-defined]
    return err


def _type_schema(tp: Any, name: str) -> Any:
    """``tp``'s JSON Schema from ``pydantic.TypeAdapter`` (validation mode), or the error naming it."""
    pydantic = _pydantic(name)
    try:
        schema = pydantic.TypeAdapter(tp).json_schema()
    except (pydantic.PydanticUserError, pydantic.PydanticSchemaGenerationError, TypeError, NameError) as exc:
        raise _error(
            SchemaGenerationError,
            f"pydantic cannot describe {tp!r} as JSON Schema: {exc}",
            tool=name,
            kind="pydantic",
        ) from exc
    # A model's docstring (the root's and each definition's description): its prose and field
    # sections only.
    if isinstance(schema, dict):
        for node in (schema, *(schema.get("$defs") or {}).values()):
            if isinstance(node, dict) and isinstance(node.get("description"), str):
                node["description"] = _tool_doc(node["description"]) or ""
                if not node["description"]:
                    del node["description"]
    return schema


def _callable_schema(fn: Callable[..., Any], name: str, excluded: tuple[str, ...]) -> Any:
    """The JSON Schema of ``fn``'s parameters: a pydantic model made of them (extra arguments
    forbidden, the docstring as its description for the pipeline's merge-docs pass), an excluded
    parameter as ``Any`` (never rendered; the pipeline's ``exclude`` removes it)."""
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError) as exc:
        raise _error(SchemaGenerationError, f"cannot read its signature: {exc}", tool=name, kind="signature") from exc
    try:
        hints = annotations_of(fn)
    except Exception as exc:  # NameError for an unresolvable forward reference, and the like
        raise _error(SchemaGenerationError, f"cannot resolve its annotations: {exc}", tool=name, kind="annotation") from exc
    parameters = signature.parameters
    unknown = [n for n in excluded if n not in parameters]
    if unknown:
        names = ", ".join(f"`{n}`" for n in parameters) or "none"
        close = [m for n in unknown for m in difflib.get_close_matches(n, list(parameters), n=1)]
        hint = f"; did you mean `{close[0]}`?" if close else ""
        raise _error(
            SchemaGenerationError,
            f"cannot exclude `{unknown[0]}`: it has no such parameter (it has {names}){hint} A typo "
            "here would let the model fill a value the caller meant to inject",
            tool=name,
            kind="unknown-exclude",
        )
    fields: dict[str, Any] = {}
    for param in parameters.values():
        pointer = "/properties/" + param.name.replace("~", "~0").replace("/", "~1")
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            star = "*" if param.kind is param.VAR_POSITIONAL else "**"
            raise _error(
                SchemaGenerationError,
                f"parameter `{star}{param.name}` takes any number of arguments, which a schema cannot "
                "name; declare each argument as its own parameter",
                tool=name,
                kind="variadic",
                pointer=pointer,
                field=param.name,
            )
        if param.name.startswith("_"):
            raise _error(
                SchemaGenerationError,
                f"parameter `{param.name}` starts with an underscore, which pydantic would drop "
                "without a word; rename it",
                tool=name,
                kind="private-name",
                pointer=pointer,
                field=param.name,
            )
        default = ... if param.default is param.empty else param.default
        if param.name in excluded:
            # Injected by the caller: never rendered (it may be a context or a connection); the
            # pipeline's `exclude` removes it after the docstring's entry for it has landed.
            fields[param.name] = (Any, default)
            continue
        if param.name not in hints:
            raise _error(
                SchemaGenerationError,
                f"parameter `{param.name}` has no annotation, so there is no type to describe; "
                "annotate it (or exclude it if the caller injects it)",
                tool=name,
                kind="unannotated",
                pointer=pointer,
                field=param.name,
            )
        fields[param.name] = (hints[param.name], default)
    pydantic = _pydantic(name)
    try:
        with warnings.catch_warnings():
            # A parameter named like a BaseModel attribute (`json`, `schema`, `copy`) is fine here:
            # the model only ever produces this schema.
            warnings.filterwarnings("ignore", message=r"Field name .* shadows an attribute in parent")
            model = pydantic.create_model(
                name.rsplit(".", 1)[-1],
                __config__=pydantic.ConfigDict(extra="forbid", protected_namespaces=()),
                __doc__=_doc_of(fn),
                **fields,
            )
            return model.model_json_schema()
    except (pydantic.PydanticUserError, pydantic.PydanticSchemaGenerationError, TypeError, NameError) as exc:
        culprit = _unrenderable(pydantic, fields, excluded)
        if culprit is None:
            raise _error(
                SchemaGenerationError,
                f"pydantic cannot describe its parameters as JSON Schema: {exc}",
                tool=name,
                kind="pydantic",
            ) from exc
        raise _error(
            SchemaGenerationError,
            f"parameter `{culprit}` has a type pydantic cannot describe as JSON Schema "
            f"({fields[culprit][0]!r}): {exc}; give it a type pydantic can describe, or exclude it if "
            "the caller injects it",
            tool=name,
            kind="pydantic",
            pointer="/properties/" + culprit.replace("~", "~0").replace("/", "~1"),
            field=culprit,
        ) from exc


def _unrenderable(pydantic: Any, fields: dict[str, Any], excluded: tuple[str, ...]) -> str | None:
    """The first parameter whose type alone pydantic cannot describe, or ``None``."""
    for param, (annotation, _) in fields.items():
        if param in excluded:
            continue
        try:
            pydantic.TypeAdapter(annotation).json_schema()
        except Exception:
            return param
    return None


def _pydantic(name: str) -> Any:
    """The pydantic module, imported on first use, or the error saying it is needed."""
    try:
        import pydantic
    except ImportError as exc:
        raise _error(
            SchemaGenerationError,
            "schema_for needs pydantic 2 to describe a Python type or callable (pip install pydantic); "
            "for a schema you already have, use normalize()",
            tool=name,
            kind="pydantic-missing",
        ) from exc
    return pydantic

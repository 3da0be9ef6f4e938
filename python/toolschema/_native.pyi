"""Type stubs for ``toolschema._native``, the Rust half of the package (see ``src/lib.rs``)."""

from typing import Any, Dict, Iterable, Literal, Optional, Protocol, Tuple, Union, final, type_check_only

__all__ = [
    "Adaptation",
    "ArgumentsError",
    "CapabilityError",
    "ConversionError",
    "DIALECTS",
    "DocWarning",
    "ForeignSchemaError",
    "MAX_NESTING",
    "RenamedKey",
    "SchemaGenerationError",
    "ToolSchema",
    "ToolSchemaError",
    "__version__",
    "canonical_json",
    "declared_type",
    "declared_types",
    "normalize",
    "restore",
    "schema_hash",
    "self_contained_input_schema",
    "validate",
]

__version__: str
DIALECTS: Tuple[str, ...]
"""The dialect names ``normalize`` and ``schema_for`` take, as the CLI spells them."""
MAX_NESTING: int
"""How deeply an argument may nest (lists and dicts) before ``ConversionError``."""

_JsonType = Literal["object", "array", "string", "number", "integer", "boolean", "null"]

@type_check_only
class _Dialect(Protocol):
    """A dialect of your own (``toolschema.SchemaDialect``): a name, forbidden keywords, an adapt."""

    @property
    def name(self) -> str: ...
    @property
    def forbidden(self) -> Iterable[str]: ...
    def adapt(self, schema: Dict[str, Any]) -> Any: ...

class ToolSchemaError(ValueError):
    """Base of every error toolschema raises."""

    tool: Optional[str]
    pointer: Optional[str]
    reference: Optional[str]
    kind: Optional[str]

class ForeignSchemaError(ToolSchemaError):
    """``self_contained_input_schema`` refused the schema."""

class SchemaGenerationError(ToolSchemaError):
    """The pipeline (or ``schema_for``) refused to describe a type or schema."""

    field: Optional[str]

class CapabilityError(ToolSchemaError):
    """The dialect cannot express the schema; ``errors`` lists every violation."""

    dialect: Optional[str]
    keyword: Optional[str]
    field: Optional[str]
    errors: Tuple[dict[str, Optional[str]], ...]

class ConversionError(ToolSchemaError):
    """An argument holds a value JSON cannot carry unchanged."""

class ArgumentsError(ToolSchemaError):
    """``restore`` refused a model's arguments. ``str()`` is written for the model (hand it back
    as the tool's result); ``faults`` lists every fault as ``(pointer, message)``, each pointer into
    the arguments as the model sent them; ``pointer`` is the first's."""

    faults: list[Tuple[str, str]]

_AdaptationKind = Literal[
    "null-for-absent",
    "map-as-entries",
    "json-text",
    "wrapped-root",
    "tuple-as-object",
    "enum-as-text",
    "moved-check",
    "absent-for-null",
    "renamed-key",
    "schema-text",
    "folded",
]

@final
class Adaptation:
    """One rewrite a provider dialect made, which ``ToolSchema.restore`` undoes; ``str()`` says it
    in words. Equal and hashed by ``(pointer, keyword, kind)``."""

    @property
    def pointer(self) -> str:
        """JSON pointer into the normalised original schema."""
    @property
    def keyword(self) -> str:
        """The keyword concerned: ``"required"``, ``"additionalProperties"``, ``"minimum"``, ..."""
    @property
    def kind(self) -> _AdaptationKind: ...
    @property
    def message(self) -> str: ...
    def __hash__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...

@final
class RenamedKey:
    """A property key a dialect sends under another name (``restore`` maps it back); ``str()``
    says it in words. Equal and hashed by ``(pointer, original, sent)``."""

    @property
    def pointer(self) -> str:
        """JSON pointer of the property in the normalised original schema."""
    @property
    def original(self) -> str:
        """The key the original schema and the restored arguments use."""
    @property
    def sent(self) -> str:
        """The key the provider is told and the model sends."""
    @property
    def message(self) -> str: ...
    def __hash__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...

@final
class DocWarning:
    """A docstring ``Args:`` entry that did not land on a property."""

    @property
    def pointer(self) -> str: ...
    @property
    def kind(self) -> Literal["unknown-entry", "unreadable-line", "empty-entry", "other"]: ...
    @property
    def name(self) -> Optional[str]: ...
    @property
    def line(self) -> Optional[str]: ...
    @property
    def message(self) -> str: ...

@final
class ToolSchema:
    """A normalised schema with its canonical JSON and hash, and the restore plan for a model's
    arguments under it; equal when the hashes are."""

    @property
    def schema(self) -> Any:
        """The schema (a new dict on each access)."""
    @property
    def canonical_json(self) -> str:
        """RFC 8785 canonical JSON of the schema (keys sorted); ``ConversionError`` if it holds a
        NaN or infinite float."""
    @property
    def hash(self) -> str:
        """``"sha256:..."`` over ``{"dialect": ..., "schema": ...}``; ``ConversionError`` if the
        schema holds a NaN or infinite float."""
    @property
    def dialect(self) -> str: ...
    @property
    def excluded(self) -> list[str]: ...
    @property
    def doc_warnings(self) -> list[DocWarning]: ...
    @property
    def exact(self) -> bool:
        """Built with ``exact=True``."""
    @property
    def adaptations(self) -> Tuple[Adaptation, ...]:
        """Every rewrite the dialect made that ``restore`` undoes, sorted by pointer."""
    @property
    def renamed_keys(self) -> Tuple[RenamedKey, ...]:
        """Every property key sent under another name, sorted by pointer."""
    def restore(self, arguments: Any) -> Any:
        """A model's arguments, sent under ``.schema``, mapped back to what the original schema
        accepts; ``ArgumentsError`` listing every fault. Runs with the GIL released."""
    def coerce_and_restore(self, arguments: Any) -> Tuple[Any, list[Tuple[str, str, str]]]:
        """Arguments sent without strict mode: strings converted where ``.schema`` declares
        another type (each as ``(pointer, from_type, to_type)``), then ``restore``."""
    def encode(self, value: Any) -> Any:
        """The forward map: arguments the original accepts, in the provider's terms;
        ``restore(encode(v)) == v`` up to ``null`` for a field left out."""
    def __hash__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...

def self_contained_input_schema(schema: Any, *, tool_name: str) -> dict[str, Any]:
    """Every local ``$ref`` inlined, optional unions collapsed; always ``type: "object"``."""

def declared_type(prop: Any, schema: Any) -> Optional[_JsonType]:
    """The one JSON type ``prop`` declares, or ``None``. Never raises; reads the objects where
    they are."""

def declared_types(schema: Any) -> Dict[str, Optional[_JsonType]]:
    """Each root property's ``declared_type``, in the order ``schema["properties"]`` lists them."""

def schema_hash(value: Any) -> str:
    """``"sha256:"`` + hex SHA-256 of the value's RFC 8785 bytes (an int of any size exactly)."""

def canonical_json(value: Any) -> str:
    """The value's RFC 8785 canonical JSON text (an int of any size with its exact digits)."""

def normalize(
    schema: Any,
    *,
    dialect: Union[str, _Dialect, None] = None,
    exclude: Optional[Iterable[str]] = None,
    max_bytes: Optional[int] = None,
    allow_any: bool = False,
    name: Optional[str] = None,
    exact: bool = False,
    advice: Literal["json-schema", "python"] = "json-schema",
    recursion_depth: int = 2,
) -> ToolSchema:
    """The pipeline and a dialect (a name, ``None`` for ``"json-schema"``, or an object with
    ``name``, ``forbidden`` and ``adapt``) on a JSON Schema from anywhere; ``exact=True`` refuses
    what would need a restore; ``recursion_depth`` levels of a recursion are written out where the
    provider takes none, deeper ones as JSON text."""

def restore(
    schema: Any,
    arguments: Any,
    *,
    dialect: Union[str, _Dialect],
    exact: bool = False,
    allow_any: bool = False,
    exclude: Optional[Iterable[str]] = None,
    name: Optional[str] = None,
    recursion_depth: int = 2,
) -> Any:
    """``normalize(schema, dialect=..., ...).restore(arguments)`` in one call, for a gateway that
    keeps only the original schema (the plan is derived from the schema alone)."""

def validate(schema: Any, value: Any) -> list[Tuple[str, str]]:
    """Every fault of ``value`` against ``schema`` (draft 2020-12, local ``$ref`` s) as
    ``(pointer, message)`` pairs; empty when valid. Runs with the GIL released."""

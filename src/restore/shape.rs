//! The shape of a union branch's values, by which restore tells which branch a value took, and
//! the forward map which branch to write it in.

use super::check::{self, Check};
use super::format::Format;
use super::pattern::{Outcome, Pattern};
use super::types::TypeSet;
use serde_json::Value;

/// What only the values of one union branch have: restore picks the branch whose shape a value
/// has. Built only where the branches are provably disjoint, so at most one shape fits.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Shape {
    pub(crate) types: Option<TypeSet>,
    pub(crate) values: Option<Vec<Value>>,
    /// Properties that must be present with one of these values (serde's tags).
    pub(crate) tags: Vec<(String, Vec<Value>)>,
    /// For an object: the keys it may have (when `closed`), and those it must.
    pub(crate) keys: Option<(Vec<String>, Vec<String>)>,
    /// Whether the object admits no key outside the first list of `keys`.
    pub(crate) closed: bool,
    /// For a branch that is itself a union: the shapes of its branches (a value has this shape
    /// when it has one of them), the fields above then unused.
    pub(crate) any: Option<Vec<Shape>>,
    /// Only integer tokens fit: a float, even an integral one, belongs to a sibling branch that
    /// takes fractions (serde's untagged `Int(i64) | Float(f64)` reads `1.0` as the float).
    pub(crate) whole: bool,
    /// For the forward map only (restore never reads them, and disjointness ignores them): the
    /// shapes of the branch's properties and items, so that encode takes the branch whose schema
    /// its encoding fits below the top level too (a tuple's encoding `{"0": "a"}` is an object
    /// like the tuple branch's, but its items are not the tuple's).
    pub(crate) props: Vec<(String, Shape)>,
    pub(crate) items: Option<Box<Shape>>,
    /// For the forward map: the shapes of a tuple's members kept as an array (`prefixItems`),
    /// before `items`, which is then for the items past them.
    pub(crate) prefix: Vec<Shape>,
    /// For the forward map: the shape of an object's further keys' values
    /// (`additionalProperties`), which every value of a key outside `props` must fit.
    pub(crate) rest: Option<Box<Shape>>,
    /// For the forward map: how many items the provider's schema takes (`minItems`; `maxItems`,
    /// or a tuple closed by `items: false`), which an array must have to fit: `[1, "a"]` is not
    /// a tuple of one's, although its first item fits.
    pub(crate) len: (u32, Option<u32>),
    /// For the forward map: a `pattern` the provider's schema keeps on a string (a map's key
    /// sent as an entry's `key`), which a string must match to fit: an object sent as a map's
    /// entries fits that branch only where every key does.
    pub(crate) pattern: Option<Pattern>,
    /// For the forward map: a `format` the provider's schema keeps on a string, read as restore
    /// reads it ([`Format::accepts`]), which a string must be written in to fit: a value that
    /// leaves out a discriminator's tag is sent with the tag of the member whose formats it
    /// meets, not the first member's, whose `date-time` it may not be. (Restore reads a format
    /// the provider does not keep as a check of the branch's plan.)
    pub(crate) format: Option<Format>,
    /// For the forward map: the bounds the provider's schema keeps on a number (`minimum`,
    /// `exclusiveMinimum`, `maximum`, `exclusiveMaximum`) and its other checks of a value
    /// (`multipleOf`, string lengths, `uniqueItems`, key counts), which a value must meet to fit:
    /// a value that leaves out a discriminator's tag is sent with the tag of the member whose
    /// checks it meets, not the first member's, whose `maximum` or `maxLength` it may break.
    pub(crate) bounds: Option<Box<Bounds>>,
    /// The shape says exactly which values the branch's provider schema accepts (a scalar's
    /// `type` and `enum`, an object's properties of such schemas and its required keys), and
    /// [`fits`](Self::fits) reads it all, `props` and `items` included: a branch of a union whose
    /// branches differ only in checks, which restore may take for a value only where the
    /// provider's schema of that branch accepts it.
    pub(crate) exact: bool,
}

impl Shape {
    /// Whether no value can have both shapes (by type, listed values, a tag's values, or a
    /// closed key set against a required key).
    pub(crate) fn disjoint(&self, other: &Shape) -> bool {
        if let Some(any) = &self.any {
            return any.iter().all(|s| s.disjoint(other));
        }
        if let Some(any) = &other.any {
            return any.iter().all(|s| self.disjoint(s));
        }
        if let (Some(a), Some(b)) = (self.types, other.types)
            && a.0 & b.0 == 0
        {
            return true;
        }
        let outside = |values: &Option<Vec<Value>>, types: Option<TypeSet>| matches!((values, types), (Some(vs), Some(t)) if vs.iter().all(|v| !t.contains(v)));
        if outside(&self.values, other.types) || outside(&other.values, self.types) {
            return true;
        }
        if let (Some(a), Some(b)) = (&self.values, &other.values)
            && !a.iter().any(|x| b.iter().any(|y| check::json_equal(x, y)))
        {
            return true;
        }
        // Tags and key sets tell objects apart: not values of another type both admit.
        if let (Some(a), Some(b)) = (self.types, other.types)
            && a.intersection(b).0 & !TypeSet::OBJECT.0 != 0
        {
            return false;
        }
        let tag_apart = self.tags.iter().any(|(name, a)| {
            other
                .tags
                .iter()
                .any(|(n, b)| n == name && !a.iter().any(|x| b.iter().any(|y| check::json_equal(x, y))))
        });
        if tag_apart {
            return true;
        }
        let object_only = |s: &Shape| s.types == Some(TypeSet::OBJECT);
        let keys_apart = |closed: &Shape, open: &Shape| {
            matches!(&closed.keys, Some((may, _)) if closed.closed && object_only(closed) && object_only(open)
                && open.keys.as_ref().is_some_and(|(_, must)| must.iter().any(|k| !may.contains(k))))
        };
        keys_apart(self, other) || keys_apart(other, self)
    }

    /// The values both shapes may have, where they are few enough to list: the listed values of
    /// one that the other may have, or `null` where the types they share are null alone
    /// (`Option<Limit>` beside `Limit`'s unit variant). `None` where they may share more. Read
    /// where [`disjoint`](Self::disjoint) says no.
    pub(crate) fn shared_values(&self, other: &Shape) -> Option<Vec<Value>> {
        if let Some(any) = &self.any {
            let mut out = Vec::new();
            for s in any.iter().filter(|s| !s.disjoint(other)) {
                out.extend(s.shared_values(other)?);
            }
            return Some(out);
        }
        if other.any.is_some() {
            return other.shared_values(self);
        }
        match (&self.values, &other.values) {
            (Some(a), _) => Some(a.iter().filter(|v| other.fits_top(v)).cloned().collect()),
            (None, Some(b)) => Some(b.iter().filter(|v| self.fits_top(v)).cloned().collect()),
            (None, None) => {
                let shared = self.types?.intersection(other.types?);
                (shared == TypeSet::NULL).then(|| vec![Value::Null])
            }
        }
    }

    /// The shape of the values that have both shapes (a `$ref` and the keywords beside it).
    pub(crate) fn both(self, other: Shape) -> Shape {
        if let Some(any) = other.any {
            let any = any.into_iter().map(|s| self.clone().both(s)).collect();
            return Shape { any: Some(any), ..Shape::default() };
        }
        if self.any.is_some() {
            return other.both(self);
        }
        let types = match (self.types, other.types) {
            (Some(a), Some(b)) => Some(a.intersection(b)),
            (a, b) => a.or(b),
        };
        let keys = match (self.keys, other.keys) {
            (Some((may_a, mut must)), Some((may_b, must_b))) => {
                must.extend(must_b);
                Some((if self.closed { may_a } else { may_b }, must))
            }
            (a, b) => a.or(b),
        };
        let mut tags = self.tags;
        tags.extend(other.tags);
        Shape {
            types,
            values: self.values.or(other.values),
            tags,
            keys,
            closed: self.closed || other.closed,
            any: None,
            whole: self.whole || other.whole,
            props: Vec::new(),
            items: None,
            prefix: Vec::new(),
            rest: None,
            len: (0, None),
            pattern: None,
            format: None,
            bounds: None,
            exact: false,
        }
    }

    /// Whether some value of this shape may be a number with a fraction.
    pub(crate) fn admits_fractions(&self) -> bool {
        match &self.any {
            Some(any) => any.iter().any(Shape::admits_fractions),
            None => self.types.is_some_and(|t| t.0 & 16 != 0),
        }
    }

    /// [`fits`](Self::fits), and every property and item present fits its own shape.
    pub(super) fn fits_deep(&self, v: &Value) -> bool {
        if let Some(any) = &self.any {
            return !(self.whole && matches!(v, Value::Number(n) if n.is_f64()))
                && any.iter().any(|s| s.fits_deep(v));
        }
        if !self.fits(v) {
            return false;
        }
        let own = match v {
            // A pattern that runs out of steps tells nothing: the provider decides.
            Value::String(s) => {
                self.pattern.as_ref().is_none_or(|p| p.run(s) != Outcome::NoMatch)
                    && self.format.is_none_or(|f| f.accepts(s))
            }
            Value::Number(n) => self.bounds.as_ref().is_none_or(|b| n.as_f64().is_none_or(|x| b.holds(x))),
            _ => true,
        };
        own && self.bounds.as_ref().is_none_or(|b| b.checks.iter().all(|c| c.passes(v)))
            && self.fits_deep_below(v)
    }

    /// [`fits_deep`](Self::fits_deep) of an object's properties and an array's items.
    fn fits_deep_below(&self, v: &Value) -> bool {
        match v {
            // A null is read as any other value: where it stands for absent, the provider's
            // schema of that property takes it, and so does its shape.
            Value::Object(m) => {
                self.props.iter().all(|(k, s)| m.get(k).is_none_or(|x| s.fits_deep(x)))
                    && self.rest.as_ref().is_none_or(|r| {
                        m.iter().all(|(k, x)| self.props.iter().any(|(p, _)| p == k) || r.fits_deep(x))
                    })
            }
            Value::Array(xs) => {
                xs.len() >= self.len.0 as usize
                    && self.len.1.is_none_or(|max| xs.len() <= max as usize)
                    && xs.iter().enumerate().all(|(i, x)| self.item(i).is_none_or(|s| s.fits_deep(x)))
            }
            _ => true,
        }
    }

    pub(super) fn fits(&self, v: &Value) -> bool {
        if self.exact { self.fits_exactly(v) } else { self.fits_top(v) }
    }

    /// With [`exact`](Self::exact): every property present (a `null` too) and every item fits
    /// its shape exactly.
    fn fits_below(&self, v: &Value) -> bool {
        match v {
            Value::Object(m) => self.props.iter().all(|(k, s)| m.get(k).is_none_or(|x| s.fits_exactly(x))),
            Value::Array(xs) => {
                xs.iter().enumerate().all(|(i, x)| self.item(i).is_none_or(|s| s.fits_exactly(x)))
            }
            _ => true,
        }
    }

    /// The shape of an array's item `i`: its tuple member's, else that of the items.
    fn item(&self, i: usize) -> Option<&Shape> {
        self.prefix.get(i).or(self.items.as_deref())
    }

    /// [`fits`](Self::fits) as an [`exact`](Self::exact) shape reads it: a union's shape
    /// through its branches', each exactly.
    fn fits_exactly(&self, v: &Value) -> bool {
        match &self.any {
            Some(any) => {
                !(self.whole && matches!(v, Value::Number(n) if n.is_f64()))
                    && any.iter().any(|s| s.fits_exactly(v))
            }
            None => self.fits_top(v) && self.fits_below(v),
        }
    }

    fn fits_top(&self, v: &Value) -> bool {
        if self.whole && matches!(v, Value::Number(n) if n.is_f64()) {
            return false;
        }
        if let Some(any) = &self.any {
            return any.iter().any(|s| s.fits(v));
        }
        if self.types.is_some_and(|t| !t.contains(v)) {
            return false;
        }
        if let Some(values) = &self.values
            && !values.iter().any(|x| check::json_equal(x, v))
        {
            return false;
        }
        if !self.tags.is_empty() || self.keys.is_some() {
            // Tags and keys judge objects; a value of another type the `type` admits fits (an
            // optional object sent as null where null stands for absent). Without a `type`,
            // only an object has them.
            let Value::Object(m) = v else { return self.types.is_some() };
            for (name, allowed) in &self.tags {
                match m.get(name) {
                    Some(x) if allowed.iter().any(|a| check::json_equal(a, x)) => {}
                    _ => return false,
                }
            }
            if let Some((may, must)) = &self.keys
                && (self.closed && !m.keys().all(|k| may.contains(k))
                    || !must.iter().all(|k| m.contains_key(k)))
            {
                return false;
            }
        }
        true
    }
}

/// The bounds a provider's schema keeps on a number, read as `f64` (the precision the providers
/// read them in), and the other checks it keeps on a value: `None` where the schema has none.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Bounds {
    pub(crate) minimum: Option<f64>,
    pub(crate) exclusive_minimum: Option<f64>,
    pub(crate) maximum: Option<f64>,
    pub(crate) exclusive_maximum: Option<f64>,
    /// `multipleOf`, `minLength`, `maxLength`, `uniqueItems`, `minProperties`, `maxProperties`,
    /// as restore reads them. (Item counts are the shape's `len`, a pattern and a format its
    /// own fields.)
    pub(crate) checks: Vec<Check>,
}

/// The keywords of [`Bounds::checks`].
const CHECKED: [&str; 6] =
    ["multipleOf", "minLength", "maxLength", "uniqueItems", "minProperties", "maxProperties"];

impl Bounds {
    /// The bounds and checks of a schema's keywords, where it has any.
    pub(crate) fn of(schema: &serde_json::Map<String, Value>) -> Option<Box<Bounds>> {
        let read = |k: &str| schema.get(k).and_then(Value::as_f64);
        let checks =
            CHECKED.iter().filter_map(|k| Check::from_keyword(k, schema.get(*k)?)).flatten().collect();
        let b = Bounds {
            minimum: read("minimum"),
            exclusive_minimum: read("exclusiveMinimum"),
            maximum: read("maximum"),
            exclusive_maximum: read("exclusiveMaximum"),
            checks,
        };
        (b != Bounds::default()).then(|| Box::new(b))
    }

    /// Whether `x` is within every bound.
    fn holds(&self, x: f64) -> bool {
        self.minimum.is_none_or(|m| x >= m)
            && self.exclusive_minimum.is_none_or(|m| x > m)
            && self.maximum.is_none_or(|m| x <= m)
            && self.exclusive_maximum.is_none_or(|m| x < m)
    }
}

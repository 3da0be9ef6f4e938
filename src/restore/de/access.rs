//! serde's access traits for the views of [`super`]: maps, sequences, enum variants, keys, and
//! the `Deserializer` of a value at a node and of its view.

use super::*;

macro_rules! numeric_key {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
            // serde_json's key reader: a number token and nothing after it.
            let bytes = self.key.as_bytes();
            if !matches!(bytes.first(), Some(b'0'..=b'9' | b'-'))
                || matches!(bytes.last(), Some(b' ' | b'\t' | b'\n' | b'\r'))
            {
                return Err(self.ctx.fail());
            }
            let mut de = serde_json::Deserializer::from_str(self.key);
            let out = de.$method(visitor).map_err(|_| self.ctx.fail())?;
            de.end().map_err(|_| self.ctx.fail())?;
            Ok(out)
        }
    )*};
}

/// Every method serde_json's value deserializers have, for a planned place: resolved, then shown.
macro_rules! through_view {
    ($($method:ident($($arg:ident: $ty:ty),*))*) => {$(
        fn $method<V: Visitor<'a>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, Error> {
            self.view()?.$method($($arg,)* visitor)
        }
    )*};
}

/// A method that reads a scalar: serde_json's own for a value, refused for a map or a list
/// (serde_json refuses them too; the fallback words the error).
macro_rules! scalar {
    ($($method:ident($($arg:ident: $ty:ty),*))*) => {$(
        fn $method<V: Visitor<'a>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, Error> {
            match self {
                View::Plain(v) => v.$method($($arg,)* visitor),
                View::Owned(v) => v.$method($($arg,)* visitor),
                View::Map(m) => Err(m.ctx.fail()),
                View::Seq(s) => Err(s.ctx.fail()),
            }
        }
    )*};
}

/// A method that reads a list (serde_json reads only arrays through it).
macro_rules! seq {
    ($($method:ident($($arg:ident: $ty:ty),*))*) => {$(
        fn $method<V: Visitor<'a>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, Error> {
            match self {
                View::Plain(v) => v.$method($($arg,)* visitor),
                View::Owned(v) => v.$method($($arg,)* visitor),
                View::Seq(s) => s.visit(visitor),
                View::Map(m) => Err(m.ctx.fail()),
            }
        }
    )*};
}

impl<'a> MapAccess<'a> for MapAccessor<'a> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'a>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        match self.view.next() {
            Some((key, value, node)) => {
                self.pending = Some((value, node));
                seed.deserialize(KeyDe { ctx: self.view.ctx, key }).map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<S: DeserializeSeed<'a>>(&mut self, seed: S) -> Result<S::Value, Error> {
        match self.pending.take() {
            Some((value, node)) => child(self.view.ctx, seed, value, node, self.view.depth + 1),
            None => Err(self.view.ctx.fail()),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        // Exact only where no key is skipped; a hint, never a promise.
        match &self.view.source {
            Source::Map(it) if self.view.props.iter().all(|p| !p.null_is_absent) => Some(it.len()),
            Source::List(it) if self.view.props.is_empty() => Some(it.len()),
            _ => None,
        }
    }
}

impl<'a> Iterator for Items<'a> {
    type Item = &'a Value;

    fn next(&mut self) -> Option<&'a Value> {
        match self {
            Items::Slice(it) => it.next(),
            Items::List(it) => it.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Items::Slice(it) => it.size_hint(),
            Items::List(it) => it.size_hint(),
        }
    }
}

impl ExactSizeIterator for Items<'_> {}

impl<'a> SeqAccess<'a> for SeqAccessor<'a> {
    type Error = Error;

    fn next_element_seed<S: DeserializeSeed<'a>>(&mut self, seed: S) -> Result<Option<S::Value>, Error> {
        let Some((i, value)) = self.items.next() else { return Ok(None) };
        let node = self.prefix.get(i).copied().unwrap_or(self.rest);
        child(self.ctx, seed, value, node, self.depth + 1).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

impl<'a> EnumAccess<'a> for Variant<'a> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'a>>(self, seed: S) -> Result<(S::Value, Self), Error> {
        let name: StrDeserializer<'_, Error> = self.key.into_deserializer();
        seed.deserialize(name).map(|v| (v, self))
    }
}

impl<'a> VariantAccess<'a> for Variant<'a> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        match self.view()? {
            Some(view) => de::Deserialize::deserialize(view),
            None => Ok(()),
        }
    }

    fn newtype_variant_seed<S: DeserializeSeed<'a>>(self, seed: S) -> Result<S::Value, Error> {
        match self.value {
            Some((value, node)) => child(self.ctx, seed, value, node, self.depth + 1),
            None => Err(self.ctx.fail()),
        }
    }

    fn tuple_variant<V: Visitor<'a>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        match self.view()? {
            Some(View::Plain(Value::Array(items))) if items.is_empty() => visitor.visit_unit(),
            Some(View::Owned(Value::Array(items))) if items.is_empty() => visitor.visit_unit(),
            Some(View::Seq(seq)) if seq.items.len() == 0 => visitor.visit_unit(),
            Some(view @ (View::Plain(Value::Array(_)) | View::Owned(Value::Array(_)) | View::Seq(_))) => {
                view.deserialize_seq(visitor)
            }
            _ => Err(self.ctx.fail()),
        }
    }

    fn struct_variant<V: Visitor<'a>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.view()? {
            Some(view @ (View::Plain(Value::Object(_)) | View::Owned(Value::Object(_)) | View::Map(_))) => {
                view.deserialize_map(visitor)
            }
            _ => Err(self.ctx.fail()),
        }
    }
}

impl<'a> Deserializer<'a> for KeyDe<'a> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_borrowed_str(self.key)
    }

    numeric_key!(deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f32 deserialize_f64);

    fn deserialize_bool<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.key {
            "true" => visitor.visit_bool(true),
            "false" => visitor.visit_bool(false),
            _ => Err(self.ctx.fail()),
        }
    }

    fn deserialize_option<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'a>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'a>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let key: de::value::CowStrDeserializer<'a, Error> = Cow::Borrowed(self.key).into_deserializer();
        key.deserialize_enum(name, variants, visitor)
    }

    serde::forward_to_deserialize_any! {
        <W: Visitor<'a>>
        char str string bytes byte_buf unit unit_struct seq tuple tuple_struct
        map struct identifier ignored_any
    }
}

impl<'a> Deserializer<'a> for De<'a> {
    type Error = Error;

    through_view! {
        deserialize_any() deserialize_bool() deserialize_i8() deserialize_i16() deserialize_i32()
        deserialize_i64() deserialize_i128() deserialize_u8() deserialize_u16() deserialize_u32()
        deserialize_u64() deserialize_u128() deserialize_f32() deserialize_f64() deserialize_char()
        deserialize_str() deserialize_string() deserialize_bytes() deserialize_byte_buf()
        deserialize_option() deserialize_unit() deserialize_unit_struct(name: &'static str)
        deserialize_newtype_struct(name: &'static str) deserialize_seq()
        deserialize_tuple(len: usize) deserialize_tuple_struct(name: &'static str, len: usize)
        deserialize_map() deserialize_struct(name: &'static str, fields: &'static [&'static str])
        deserialize_enum(name: &'static str, variants: &'static [&'static str])
        deserialize_identifier() deserialize_ignored_any()
    }
}

impl<'a> Deserializer<'a> for View<'a> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            View::Plain(v) => v.deserialize_any(visitor),
            View::Owned(v) => v.deserialize_any(visitor),
            View::Map(m) => m.visit(visitor),
            View::Seq(s) => s.visit(visitor),
        }
    }

    scalar! {
        deserialize_bool() deserialize_i8() deserialize_i16() deserialize_i32() deserialize_i64()
        deserialize_i128() deserialize_u8() deserialize_u16() deserialize_u32() deserialize_u64()
        deserialize_u128() deserialize_f32() deserialize_f64() deserialize_char() deserialize_str()
        deserialize_string() deserialize_unit() deserialize_unit_struct(name: &'static str)
        deserialize_identifier()
    }

    seq! {
        deserialize_bytes() deserialize_byte_buf() deserialize_seq() deserialize_tuple(len: usize)
        deserialize_tuple_struct(name: &'static str, len: usize)
    }

    fn deserialize_option<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            View::Plain(v) => v.deserialize_option(visitor),
            View::Owned(v) => v.deserialize_option(visitor),
            view @ (View::Map(_) | View::Seq(_)) => visitor.visit_some(view),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'a>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self {
            View::Plain(v) => v.deserialize_newtype_struct(name, visitor),
            View::Owned(v) => v.deserialize_newtype_struct(name, visitor),
            view @ (View::Map(_) | View::Seq(_)) => visitor.visit_newtype_struct(view),
        }
    }

    fn deserialize_map<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            View::Plain(v) => v.deserialize_map(visitor),
            View::Owned(v) => v.deserialize_map(visitor),
            View::Map(m) => m.visit(visitor),
            View::Seq(s) => Err(s.ctx.fail()),
        }
    }

    fn deserialize_struct<V: Visitor<'a>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self {
            View::Plain(v) => v.deserialize_struct(name, fields, visitor),
            View::Owned(v) => v.deserialize_struct(name, fields, visitor),
            View::Map(m) => m.visit(visitor),
            View::Seq(s) => s.visit(visitor),
        }
    }

    fn deserialize_enum<V: Visitor<'a>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self {
            View::Plain(v) => v.deserialize_enum(name, variants, visitor),
            View::Owned(v) => v.deserialize_enum(name, variants, visitor),
            View::Map(m) => m.visit_enum(visitor),
            View::Seq(s) => Err(s.ctx.fail()),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            View::Plain(v) => v.deserialize_ignored_any(visitor),
            View::Owned(v) => v.deserialize_ignored_any(visitor),
            // serde skips the value; restore would still have walked it (a fault below counts).
            view @ (View::Map(_) | View::Seq(_)) => {
                view.deserialize_any(IgnoredAny)?;
                visitor.visit_unit()
            }
        }
    }
}

//! A family of 50 related, documented types (structs, unit and data-carrying enums, options,
//! vectors, maps, recursion), in the shape of a travel agent's tool input. [`Root`] reaches all 50.

#![allow(dead_code, clippy::large_enum_variant)] // the types exist to be described, never built

use schemars::JsonSchema;
use serde::Deserialize;
use std::collections::BTreeMap;

/// Plan, change or cancel a trip for one traveller party.
///
/// Args:
///     request_id: An identifier the caller keeps, echoed back in the answer.
///     party: Who travels.
///     plan: What to book.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct Root {
    request_id: String,
    party: Party,
    plan: Plan,
    /// How to pay, when something is booked.
    payment: Option<Payment>,
    /// What the traveller wants told, and how.
    notifications: Vec<Notification>,
    /// Constraints the plan must respect.
    policy: Policy,
    /// Free-form labels for the caller's own records.
    labels: BTreeMap<String, Label>,
}

/// The people travelling together.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct Party {
    /// The person the booking is made for.
    lead: Traveller,
    /// Everyone else, in seating order.
    companions: Vec<Traveller>,
    /// Pets travelling with the party.
    pets: Vec<Pet>,
}

/// One traveller.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct Traveller {
    /// Name as on the travel document.
    name: PersonName,
    /// Age in whole years at the date of travel.
    age: u8,
    document: Option<TravelDocument>,
    contact: Option<Contact>,
    preferences: Preferences,
    loyalty: Vec<LoyaltyAccount>,
    assistance: Vec<Assistance>,
}

/// A person's name, split as airlines want it.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct PersonName {
    /// Given names, space separated.
    given: String,
    /// Family name.
    family: String,
    title: Option<Honorific>,
}

/// How to address the person.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Honorific {
    Mr,
    Ms,
    Mx,
    Dr,
}

/// A passport or identity card.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct TravelDocument {
    kind: DocumentKind,
    /// The number exactly as printed.
    number: String,
    issuer: CountryCode,
    expires: Date,
}

/// Which kind of document.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum DocumentKind {
    Passport,
    IdentityCard,
    ResidencePermit,
}

/// ISO 3166-1 alpha-2 country code, upper case.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct CountryCode(String);

/// A calendar date.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct Date {
    /// Four-digit year.
    year: u16,
    /// 1 to 12.
    month: u8,
    /// 1 to 31.
    day: u8,
}

/// How to reach someone.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct Contact {
    email: Option<String>,
    phone: Option<Phone>,
    address: Option<Address>,
}

/// A phone number in E.164 form.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct Phone {
    /// Country calling code without the plus.
    country_code: u16,
    /// The rest of the number, digits only.
    number: String,
}

/// A postal address.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct Address {
    /// Street and number, one line each.
    lines: Vec<String>,
    city: String,
    postal_code: Option<String>,
    country: CountryCode,
}

/// What a traveller prefers.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct Preferences {
    seat: Option<SeatPreference>,
    meal: Option<Meal>,
    cabin: Cabin,
    /// Languages the traveller speaks, best first.
    languages: Vec<String>,
}

/// Where to sit.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum SeatPreference {
    Window,
    Aisle,
    ExtraLegroom,
    NearExit,
}

/// A special meal.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Meal {
    Vegetarian,
    Vegan,
    Kosher,
    Halal,
    GlutenFree,
    Child,
}

/// Class of travel.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Cabin {
    Economy,
    PremiumEconomy,
    Business,
    First,
}

/// A frequent traveller account.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct LoyaltyAccount {
    programme: Programme,
    /// The account number.
    number: String,
    /// The tier name, as the programme spells it.
    tier: Option<String>,
}

/// A loyalty programme.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct Programme {
    /// The operator's two-letter code.
    operator: String,
    /// The alliance, if any.
    alliance: Option<String>,
}

/// Help the traveller needs.
#[derive(Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum Assistance {
    /// A wheelchair to and from the gate.
    Wheelchair { own_chair: bool },
    /// An escort for a minor travelling alone.
    UnaccompaniedMinor { guardian: Contact },
    /// Medical equipment on board.
    Medical { equipment: Vec<String> },
}

/// An animal travelling with the party.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct Pet {
    species: Species,
    /// Weight with its carrier, in kilograms.
    weight_kg: f32,
}

/// The kind of animal.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Species {
    Dog,
    Cat,
    Bird,
    Other,
}

/// What to do.
#[derive(Deserialize, JsonSchema)]
#[serde(tag = "action", rename_all = "snake_case")]
pub(crate) enum Plan {
    /// Book a new trip.
    Book { itinerary: Itinerary },
    /// Change an existing booking.
    Change { booking: BookingRef, changes: Vec<Change> },
    /// Cancel an existing booking.
    Cancel { booking: BookingRef, reason: CancelReason },
}

/// A booking's reference.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct BookingRef {
    /// Six-character record locator.
    locator: String,
    family_name: String,
}

/// Why a booking is cancelled.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum CancelReason {
    ChangeOfPlans,
    Illness,
    Duplicate,
    Other,
}

/// One change to a booking.
#[derive(Deserialize, JsonSchema)]
#[serde(tag = "change", rename_all = "snake_case")]
pub(crate) enum Change {
    /// Move a leg to another date.
    Reschedule { leg: u8, date: Date },
    /// Add a traveller.
    AddTraveller { traveller: Traveller },
    /// Replace the stays.
    ReplaceStays { stays: Vec<Stay> },
}

/// The whole trip.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct Itinerary {
    /// Transport legs, in order.
    legs: Vec<Leg>,
    /// Where the party sleeps.
    stays: Vec<Stay>,
    /// Things to do.
    activities: Vec<Activity>,
    budget: Option<Budget>,
}

/// One leg of the journey.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct Leg {
    from: Place,
    to: Place,
    depart: DateTime,
    mode: Mode,
    /// Stops on the way; a leg may be split further.
    via: Vec<Leg>,
}

/// A place.
#[derive(Deserialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum Place {
    /// An airport by IATA code.
    Airport(String),
    /// A city and country.
    City { city: String, country: CountryCode },
    /// A point.
    Point(GeoPoint),
}

/// A point on the map.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct GeoPoint {
    /// Degrees north, -90 to 90.
    lat: f64,
    /// Degrees east, -180 to 180.
    lon: f64,
}

/// A date and a local time.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct DateTime {
    date: Date,
    time: Option<TimeOfDay>,
    /// Days either side that are fine.
    flexibility: Option<u8>,
}

/// Hours and minutes, local time.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct TimeOfDay {
    /// 0 to 23.
    hour: u8,
    /// 0 to 59.
    minute: u8,
}

/// How to travel.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Mode {
    Flight,
    Train,
    Bus,
    Ferry,
    Car,
}

/// A place to sleep.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct Stay {
    place: Place,
    check_in: Date,
    /// Number of nights.
    nights: u16,
    rooms: Vec<Room>,
    /// Hotel stars, 1 to 5.
    rating: Option<u8>,
}

/// A room.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct Room {
    kind: RoomKind,
    /// Guests in this room.
    guests: u8,
    board: MealPlan,
}

/// The kind of room.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum RoomKind {
    Single,
    Double,
    Twin,
    Family,
    Suite,
}

/// Meals included.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum MealPlan {
    RoomOnly,
    Breakfast,
    HalfBoard,
    FullBoard,
}

/// Something to do.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct Activity {
    /// What it is, in a few words.
    title: String,
    at: Place,
    on: Date,
    tickets: Vec<Ticket>,
}

/// A ticket.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct Ticket {
    category: TicketCategory,
    price: Money,
}

/// Who the ticket is for.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum TicketCategory {
    Adult,
    Child,
    Senior,
    Student,
}

/// An amount of money.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct Money {
    /// In minor units (cents).
    amount: i64,
    currency: Currency,
}

/// An ISO 4217 currency.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "UPPERCASE")]
pub(crate) enum Currency {
    Eur,
    Usd,
    Gbp,
    Chf,
    Jpy,
}

/// How much may be spent.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct Budget {
    total: Money,
    /// Per night for stays, if capped.
    per_night: Option<Money>,
}

/// How to pay.
#[derive(Deserialize, JsonSchema)]
#[serde(tag = "method", rename_all = "snake_case")]
pub(crate) enum Payment {
    /// A card already on file.
    StoredCard { card_id: String },
    /// An invoice to a company.
    Invoice { company: Company },
    /// Loyalty points.
    Points { account: LoyaltyAccount },
}

/// A company that pays.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct Company {
    name: String,
    /// VAT number, if registered.
    vat: Option<String>,
    billing: Address,
}

/// A message to send the traveller.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct Notification {
    channel: Channel,
    events: Vec<Event>,
}

/// Where messages go.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Channel {
    Email,
    Sms,
    Push,
}

/// What to tell.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Event {
    Confirmed,
    Delayed,
    GateChanged,
    Cancelled,
}

/// Rules the plan must follow.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct Policy {
    /// Highest cabin allowed.
    max_cabin: Cabin,
    /// Carriers never to book.
    blocked_operators: Vec<String>,
    approval: Option<Approval>,
}

/// Who must approve.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct Approval {
    approver: Contact,
    /// Above this amount the approver is asked.
    threshold: Money,
}

/// A label's value.
#[derive(Deserialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum Label {
    Text(String),
    Number(i64),
    Flag(bool),
}

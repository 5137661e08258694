//! The velocity-space avoidance of a profile as written in a scene file: the method and its
//! parameters ([`Avoidance`]) and where the preferred velocity comes from
//! ([`PreferredVelocity`]) and what a stuck agent does ([`Unstick`]), with their defaults and validation. The simulator (`sim::avoid`)
//! implements the methods.

mod params;
mod preferred;
mod unstick;

pub use params::{Avoidance, BrandejskyParams, ClearPathParams, ClearPathVariant, ObstacleParams, Reach};
pub use preferred::PreferredVelocity;
pub use unstick::Unstick;

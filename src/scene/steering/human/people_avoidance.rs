//! Parameters of Popelová's PEOPLE AVOIDANCE (§3.2, Table 3.2): repulsive force, distance,
//! projection, the *Circumvention*, *Deceleration* and *Acceleration* extensions and the character
//! presets of §3.2.5 / §6.3.5, with their defaults, the parameters a preset puts in effect, the
//! neighbourhood they need and their validation. The steering is computed by the simulator
//! (`sim::steer::human`).

use serde::{Deserialize, Serialize};

use super::{THESIS_TICK, WALK_SPEED};
use crate::scene::Problems;

/// Character presets of §3.2.5 / §6.3.5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Character {
    /// Dominant or aggressive: basic behaviour only.
    Dominant,
    /// Shy: Distance 600 cm, Repulsive Force 250 N_UT.
    Shy,
    /// Among friends: Distance about 300 down to 150 cm (200 cm here).
    AmongFriends,
    /// Absent-minded: Projection 3, Distance 150 cm, Repulsive Force 250 N_UT.
    AbsentMinded,
    /// Old or sick: full extended behaviour without Acceleration.
    OldOrSick,
    /// Hurried: Acceleration without Deceleration.
    Hurried,
    /// Pushy or unpopular: Distance about 100 cm.
    Pushy,
}

/// Parameters of people avoidance (Table 3.2; metres, forces in m/s = N_UT/100).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(default)]
pub struct PeopleAvoidance {
    /// Repulsive Force F (thesis 0–1000 N_UT; recommended 200 N_UT = 2.0).
    pub repulsive_force: f32,
    /// Distance D, the minimum gap between centres in metres (thesis 50–2000 cm; 300 cm).
    pub distance: f32,
    /// Walk round an agent in the way.
    pub circumvention: bool,
    /// Look-ahead P in 250 ms ticks (0–30; 16 recommended).
    pub projection: f32,
    /// Slow down when the other reaches the crossing first.
    pub deceleration: bool,
    /// Speed up when reaching the crossing first.
    pub acceleration: bool,
    /// A character preset; when set it replaces the fields its table row names.
    pub character: Option<Character>,
}

impl Default for PeopleAvoidance {
    fn default() -> Self {
        PeopleAvoidance {
            repulsive_force: 2.0,
            distance: 3.0,
            circumvention: true,
            projection: 16.0,
            deceleration: true,
            acceleration: true,
            character: None,
        }
    }
}

impl PeopleAvoidance {
    /// The parameters in effect: the written ones with the character preset applied.
    pub fn effective(&self) -> PeopleAvoidance {
        let mut p = self.clone();
        match self.character {
            None => {}
            Some(Character::Dominant) => (p.circumvention, p.deceleration, p.acceleration) = (false, false, false),
            Some(Character::Shy) => (p.distance, p.repulsive_force) = (6.0, 2.5),
            Some(Character::AmongFriends) => p.distance = 2.0,
            Some(Character::AbsentMinded) => (p.projection, p.distance, p.repulsive_force) = (3.0, 1.5, 2.5),
            Some(Character::OldOrSick) => (p.circumvention, p.deceleration, p.acceleration) = (true, true, false),
            Some(Character::Hurried) => (p.deceleration, p.acceleration) = (false, true),
            Some(Character::Pushy) => p.distance = 1.0,
        }
        p
    }

    /// How far to look for other agents: D plus what two walkers close in P ticks.
    pub fn neighbour_radius(&self) -> f32 {
        let p = self.effective();
        p.distance + p.projection * THESIS_TICK * 2.0 * WALK_SPEED
    }

    /// Reports parameters outside the thesis's ranges.
    pub fn validate(&self, at: &str, problems: &mut Problems) {
        problems.non_negative(format!("{at}.repulsive_force"), self.repulsive_force);
        problems.positive(format!("{at}.distance"), self.distance);
        problems.within(format!("{at}.projection"), self.projection, 0.0, 30.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_set_their_table_rows() {
        let shy = PeopleAvoidance {
            character: Some(Character::Shy),
            ..PeopleAvoidance::default()
        }
        .effective();
        assert_eq!((shy.distance, shy.repulsive_force), (6.0, 2.5));
        let old = PeopleAvoidance {
            character: Some(Character::OldOrSick),
            ..PeopleAvoidance::default()
        }
        .effective();
        assert!(old.circumvention && old.deceleration && !old.acceleration);
    }
}

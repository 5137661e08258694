//! Oblak's agent state machines (§2.6): exactly one state per tick; a state that decides to
//! leave sets the next state, whose entry set-up runs at the start of the next tick — so a
//! transition takes effect one tick later. The state executed is recorded for the tick.
//!
//! People: Idle ↔ Wander on timeouts; a threat (burning hazard, or a zombie in view) → Flee,
//! until it is out of sight and `flee_distance` away → Move to a known exit, else Search;
//! the alarm or panic → Move to a known exit, else Search; Search samples points, marks the
//! visible ones visited, and ends when an exit becomes known (→ Move) or all are seen (→ Wander);
//! Move ends at the exit (escaped) or the goal (→ Idle). A person a zombie reaches is Caught and,
//! after `conversion_delay`, turns into the `convert_to` type.
//! Zombies: Idle (resting) → Search for people; prey in view → Chase; reaching it → Idle for
//! `rest_time`; losing it → Move to its last known position → Search.

use glam::Vec2;
use rand::Rng;
use rand_pcg::Pcg32;

use super::navigator::Destination;
use super::senses::{Senses, TALK_RADIUS};
use crate::scene::{AgentType, Role};

/// The states, in the order of their names in the recording's state table (after the two
/// goal-following states).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// Standing, watching.
    Idle,
    /// Correlated random walk to nearby visible points.
    Wander,
    /// Going to a point (an exit, a goal, a last known position).
    Move,
    /// Visiting sampled points until the sought thing is seen.
    Search,
    /// Running away from a point threat.
    Flee,
    /// Pursuing prey.
    Chase,
    /// Caught by a zombie, turning.
    Caught,
}

/// What the machine asks of the world after a tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MachineEvent {
    /// Nothing special.
    None,
    /// Reached this exit (index into the evacuation exits): the agent leaves the world.
    Escaped(usize),
    /// Turned into another type (index into `Scene::agent_types`).
    Converted(usize),
}

/// Wander legs turn by at most this much from the previous leg (radians), correlated walk.
const WANDER_TURN: f32 = 0.8;

/// An agent's state machine and its per-state variables.
#[derive(Clone, Debug)]
pub struct Machine {
    /// Index of the agent type.
    pub kind: usize,
    state: State,
    next: Option<State>,
    entered: f32,
    destination: Option<Vec2>,
    goal: Option<Vec2>,
    heading: f32,
    search: Vec<(Vec2, bool)>,
    threat: Option<Vec2>,
    prey: Option<u32>,
    own_panic: f32,
    panic: f32,
    panicked_at: Option<f32>,
    exits: u64,
    learned: Vec<(u8, f32)>,
    shared_exits: u64,
    exit: Option<usize>,
    caught_at: Option<f32>,
    event: MachineEvent,
}

impl Machine {
    /// A machine of type `kind`; with a `goal` point it starts by moving there, else idling.
    pub fn new(kind: usize, t: &AgentType, goal: Option<Vec2>, exits: usize, rng: &mut Pcg32) -> Machine {
        let all = if t.knows_exits && exits > 0 {
            u64::MAX >> (64 - exits)
        } else {
            0
        };
        Machine {
            kind,
            state: if goal.is_some() { State::Move } else { State::Idle },
            next: None,
            entered: 0.0,
            destination: goal,
            goal,
            heading: rng.random_range(0.0..std::f32::consts::TAU),
            search: Vec::new(),
            threat: None,
            prey: None,
            own_panic: 0.0,
            panic: 0.0,
            panicked_at: None,
            exits: all,
            learned: Vec::new(),
            shared_exits: all,
            exit: None,
            caught_at: None,
            event: MachineEvent::None,
        }
    }

    /// The state executed this tick.
    pub fn state(&self) -> State {
        self.state
    }

    /// Total panic (0–1).
    pub fn panic(&self) -> f32 {
        self.panic
    }

    /// Exits this agent knows (bit set).
    pub fn known_exits(&self) -> u64 {
        self.exits
    }

    /// Panic and exit knowledge neighbours can pick up now.
    pub fn shared(&self, t: &AgentType, time: f32) -> (f32, u64) {
        let panic = match self.panicked_at {
            Some(at) if time >= at + t.hop_delay => self.panic,
            _ => 0.0,
        };
        (panic, self.shared_exits)
    }

    /// True once caught.
    pub fn caught(&self) -> bool {
        self.caught_at.is_some()
    }

    /// Where to go this tick.
    pub fn destination(&self) -> Option<Destination> {
        let point = self.destination?;
        Some(Destination {
            point,
            is_final: matches!(self.state, State::Move | State::Wander),
        })
    }

    /// Switches to the pending state (running its entry set-up), then runs the current state once.
    pub fn think(&mut self, t: &AgentType, senses: &Senses, rng: &mut Pcg32) {
        if let Some(next) = self.next.take() {
            self.enter(next, t, senses, rng);
        }
        match t.role {
            Role::Person => self.person(t, senses, rng),
            Role::Zombie => self.zombie(t, senses, rng),
        }
    }

    fn go(&mut self, next: State) {
        if next != self.state || matches!(next, State::Idle | State::Move) {
            self.next = Some(next);
        }
    }

    /// Entry set-up of `state` (Oblak's per-state transition function).
    fn enter(&mut self, state: State, t: &AgentType, senses: &Senses, rng: &mut Pcg32) {
        self.state = state;
        self.entered = senses.time;
        self.destination = None;
        match state {
            State::Idle | State::Caught | State::Flee | State::Chase => {}
            State::Wander => self.destination = Some(self.wander_point(t, senses, rng)),
            State::Move => {
                self.destination = match (self.exit, self.goal) {
                    (Some(e), _) => Some(senses.map.exits[e].position),
                    (None, goal) => goal.or(self.threat),
                }
            }
            State::Search => {
                let n = t.search_points as usize;
                self.search = (0..n)
                    .map(|_| {
                        let region = rng.random_range(0..senses.map.regions.len());
                        (senses.map.random_point_in(region, rng), false)
                    })
                    .collect();
                self.destination = self.pick_search_point(rng);
            }
        }
    }

    fn person(&mut self, t: &AgentType, s: &Senses, rng: &mut Pcg32) {
        let p = s.position();
        let mut seen = Vec::new();
        s.visible_agents(t.perception, &mut seen);
        // Caught: a zombie within reach.
        if self.caught_at.is_none()
            && seen.iter().any(|&j| {
                s.signals[j as usize].role == Some(Role::Zombie)
                    && s.bodies[j as usize].position.distance(p) <= t.catch_distance
            })
        {
            self.caught_at = Some(s.time);
            self.go(State::Caught);
        }
        if let Some(at) = self.caught_at {
            self.destination = None;
            if let Some(into) = t
                .convert_to
                .as_ref()
                .and_then(|n| s.scene.agent_types.iter().position(|x| &x.name == n))
                && s.time >= at + t.conversion_delay
            {
                self.event = MachineEvent::Converted(into);
            }
            return;
        }
        // Threats, exits and talk.
        let zombie = seen
            .iter()
            .filter(|&&j| s.signals[j as usize].role == Some(Role::Zombie))
            .map(|&j| (s.bodies[j as usize].position, s.bodies[j as usize].position.distance(p)))
            .min_by(|a, b| a.1.total_cmp(&b.1));
        let threat = s
            .nearest_hazard(t.perception)
            .into_iter()
            .chain(zombie)
            .min_by(|a, b| a.1.total_cmp(&b.1));
        if let Some((q, d)) = threat {
            self.threat = Some(q);
            self.own_panic = self.own_panic.max(1.0 - d / t.perception);
        } else {
            self.own_panic = (self.own_panic - 0.05 * s.dt).max(0.0);
        }
        let talkers: Vec<u32> = seen
            .iter()
            .copied()
            .filter(|&j| s.bodies[j as usize].position.distance(p) <= TALK_RADIUS)
            .collect();
        let heard = talkers.iter().fold(0, |bits, &j| bits | s.signals[j as usize].exits);
        self.learn(s.visible_exits(t.perception) | heard, s.time);
        self.learned.retain(|&(e, at)| {
            let due = s.time >= at + t.hop_delay;
            if due {
                self.shared_exits |= 1 << e;
            }
            !due
        });
        let acquired = s.acquired_panic(&talkers);
        self.panic = (t.own_panic_weight * self.own_panic + t.acquired_panic_weight * acquired).clamp(0.0, 1.0);
        if self.panic > 0.05 && self.panicked_at.is_none() {
            self.panicked_at = Some(s.time);
        } else if self.panic <= 0.05 {
            self.panicked_at = None;
        }
        let alarmed = s.scene.evacuation.alarm_time.is_some_and(|a| s.time >= a) || self.panic > 0.3;
        let evacuating = alarmed && self.exits != 0;
        self.choose_exit(s);
        let elapsed = s.time - self.entered;
        match self.state {
            State::Flee => {
                let away = self.threat.is_none_or(|q| p.distance(q) >= t.flee_distance);
                if threat.is_none() && away {
                    self.go(if self.exits != 0 { State::Move } else { State::Search });
                } else {
                    self.destination = Some(self.flee_point(t, s));
                }
            }
            _ if threat.is_some_and(|(_, d)| d < t.perception) && self.state != State::Move
                || threat.is_some_and(|(_, d)| d < t.catch_distance * 4.0) =>
            {
                self.go(State::Flee)
            }
            State::Move => {
                if let Some(e) = self.exit
                    && self.destination != Some(s.map.exits[e].position)
                {
                    self.destination = Some(s.map.exits[e].position);
                }
                if self.exit.is_none() && evacuating {
                    self.go(State::Move);
                }
            }
            _ if evacuating => self.go(State::Move),
            State::Search => self.search_step(t, s, rng, alarmed && self.exits != 0),
            _ if alarmed => self.go(State::Search),
            State::Idle if elapsed >= t.idle_time => self.go(State::Wander),
            State::Wander => {
                if elapsed >= t.wander_time {
                    self.go(State::Idle);
                } else if self.destination.is_none_or(|d| d.distance(p) < 0.8) {
                    self.destination = Some(self.wander_point(t, s, rng));
                }
            }
            _ => {}
        }
    }

    fn zombie(&mut self, t: &AgentType, s: &Senses, rng: &mut Pcg32) {
        let p = s.position();
        let mut seen = Vec::new();
        s.visible_agents(t.perception, &mut seen);
        let prey = seen
            .iter()
            .copied()
            .filter(|&j| s.signals[j as usize].role == Some(Role::Person) && !s.signals[j as usize].caught)
            .min_by(|&a, &b| {
                let d = |j: u32| s.bodies[j as usize].position.distance_squared(p);
                d(a).total_cmp(&d(b)).then(a.cmp(&b))
            });
        let elapsed = s.time - self.entered;
        match self.state {
            State::Chase => match self
                .prey
                .filter(|j| seen.contains(j) && !s.signals[*j as usize].caught)
                .or(prey)
            {
                Some(j) => {
                    self.prey = Some(j);
                    let q = s.bodies[j as usize].position;
                    self.destination = Some(q);
                    self.threat = Some(q);
                    if q.distance(p) <= t.catch_distance {
                        self.go(State::Idle);
                    }
                }
                None => {
                    self.prey = None;
                    self.go(State::Move);
                }
            },
            _ if prey.is_some() && !(self.state == State::Idle && elapsed < t.rest_time) => {
                self.prey = prey;
                self.go(State::Chase);
            }
            State::Idle if elapsed >= t.idle_time.max(t.rest_time) => self.go(State::Search),
            State::Move if self.destination.is_none_or(|d| d.distance(p) < 1.0) => self.go(State::Search),
            State::Search => self.search_step(t, s, rng, false),
            State::Wander if elapsed >= t.wander_time => self.go(State::Idle),
            _ => {}
        }
    }

    /// Marks the visible search points visited; moves on to another one; ends the search when
    /// `found` or when every point has been seen.
    fn search_step(&mut self, t: &AgentType, s: &Senses, rng: &mut Pcg32, found: bool) {
        if found {
            self.go(State::Move);
            return;
        }
        let p = s.position();
        // Visibility checks are spread over ticks (every 5th tick per agent).
        if (s.tick + s.index as u64).is_multiple_of(5) {
            for (q, visited) in &mut self.search {
                if !*visited && p.distance(*q) <= t.perception && s.map.clear_line(p, *q) {
                    *visited = true;
                }
            }
        }
        let reached = self.destination.is_none_or(|d| d.distance(p) < 1.0);
        let current_seen = self.search.iter().any(|(q, v)| *v && Some(*q) == self.destination);
        if reached || current_seen {
            if let Some((_, v)) = self.search.iter_mut().find(|(q, _)| Some(*q) == self.destination) {
                *v = true;
            }
            self.destination = self.pick_search_point(rng);
            if self.destination.is_none() {
                self.go(State::Wander);
            }
        }
    }

    fn pick_search_point(&self, rng: &mut Pcg32) -> Option<Vec2> {
        let open: Vec<Vec2> = self.search.iter().filter(|(_, v)| !v).map(|(q, _)| *q).collect();
        (!open.is_empty()).then(|| open[rng.random_range(0..open.len())])
    }

    /// The next point of a correlated random walk: the previous leg's heading turned a little,
    /// the first directly reachable of a few tries (turning further each time).
    fn wander_point(&mut self, t: &AgentType, s: &Senses, rng: &mut Pcg32) -> Vec2 {
        let p = s.position();
        let turn = rng.random_range(-WANDER_TURN..=WANDER_TURN);
        for k in 0..8 {
            let angle = self.heading + turn + k as f32 * if k % 2 == 0 { 0.8 } else { -0.8 } * (k / 2 + 1) as f32;
            let q = p + Vec2::from_angle(angle) * t.wander_step;
            if s.map.walkable(q) && s.map.clear_line(p, q) {
                self.heading = angle;
                return q;
            }
        }
        self.heading += std::f32::consts::PI;
        p
    }

    /// Away from the threat; if that way is blocked, the reachable sampled point farthest from it.
    fn flee_point(&self, t: &AgentType, s: &Senses) -> Vec2 {
        let p = s.position();
        let threat = self.threat.unwrap_or(p);
        let away = (p - threat).normalize_or(Vec2::X);
        let step = t.wander_step.max(2.0);
        (0..12)
            .map(|k| p + Vec2::from_angle(k as f32 * std::f32::consts::TAU / 12.0).rotate(away) * step)
            .filter(|&q| s.map.walkable(q) && s.map.clear_line(p, q))
            .max_by(|a, b| a.distance_squared(threat).total_cmp(&b.distance_squared(threat)))
            .unwrap_or(p)
    }

    fn learn(&mut self, exits: u64, time: f32) {
        let new = exits & !self.exits;
        self.exits |= exits;
        for e in 0..64 {
            if new & (1 << e) != 0 {
                self.learned.push((e, time));
            }
        }
    }

    /// Picks the known exit of least cost: distance plus, with balancing, the crowd in front of
    /// it. Agents already near their exit keep it; others re-choose on their staggered tick.
    fn choose_exit(&mut self, s: &Senses) {
        if self.exits == 0 {
            return;
        }
        let p = s.position();
        let balancing = s.scene.evacuation.balancing.as_ref();
        if let (Some(e), Some(b)) = (self.exit, balancing) {
            let period = (b.replan_interval / s.dt).round().max(1.0) as u64;
            let due = (s.tick + s.index as u64).is_multiple_of(period);
            if !due || p.distance(s.map.exits[e].position) <= b.crowd_radius {
                return;
            }
        } else if self.exit.is_some_and(|e| self.exits & (1 << e) != 0) {
            return;
        }
        let cost = |i: usize| {
            let crowd = balancing.map_or(0.0, |b| b.cost_per_agent * s.exit_load[i] as f32);
            p.distance(s.map.exits[i].position) + crowd
        };
        self.exit = (0..s.map.exits.len())
            .filter(|&i| self.exits & (1 << i) != 0)
            .min_by(|&a, &b| cost(a).total_cmp(&cost(b)).then(a.cmp(&b)));
    }

    /// Reports (once) what the world must do: escape when an exit is reached, conversion.
    pub fn after_move(&mut self, position: Vec2, senses_exits: &[super::world_map::Exit]) -> MachineEvent {
        if let (State::Move, Some(e)) = (self.state, self.exit)
            && position.distance(senses_exits[e].position) <= senses_exits[e].radius
        {
            return MachineEvent::Escaped(e);
        }
        if self.state == State::Move
            && self.exit.is_none()
            && self.destination.is_some_and(|d| d.distance(position) < 0.5)
        {
            self.go(State::Idle);
        }
        std::mem::replace(&mut self.event, MachineEvent::None)
    }
}

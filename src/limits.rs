//! The limits crowdlab enforces on its input, in one place so the README's "Limits" table,
//! validation, the importers, the recording reader and the command line agree. Each limit keeps
//! a crafted or mistyped file from exhausting memory or time; a value beyond one is refused
//! with a message naming the field or option, the value and the limit.

/// Most agents a scene may hold: placed agents plus every spawn group's count.
pub const MAX_AGENTS: u64 = 100_000;

/// Most profiles a scene may define.
pub const MAX_PROFILES: usize = 100_000;

/// Most obstacles a scene may hold (they are indexed, so checks stay near-linear up to here).
pub const MAX_OBSTACLES: usize = 100_000;

/// Most moving circles a scene may hold: every body check tests each of them, so their number
/// times [`MAX_AGENTS`] bounds that work.
pub const MAX_MOVING_OBSTACLES: usize = 1_000;

/// Most headings a profile's `heading_smoothing` may average.
pub const MAX_HEADING_SMOOTHING: u32 = 1_000;

/// Most ticks one run may take: `duration / dt` of a scene, and `run --ticks`.
pub const MAX_TICKS: u64 = 10_000_000;

/// Largest absolute world coordinate (metres) of the scene bounds.
pub const MAX_COORDINATE: f32 = 1.0e6;

/// Deepest element nesting an imported XML document may have.
pub const MAX_XML_DEPTH: usize = 256;

/// Most attributes one element of an imported XML document may have.
pub const MAX_XML_ATTRIBUTES: usize = 256;

/// Most obstacles or agents one SteerSuite region element may generate.
pub const MAX_REGION_ITEMS: u32 = 10_000;

/// Largest side (pixels) of an exported PNG frame.
pub const MAX_IMAGE_SIDE: u32 = 8_192;

/// Most pixels of an exported PNG frame (one frame of 8192×4096; each worker holds one).
pub const MAX_IMAGE_PIXELS: u64 = 8_192 * 4_096;

/// Highest skeleton XML resampling rate (`export --fps`), timesteps per second.
pub const MAX_FPS: f32 = 1_000.0;

/// Most timesteps one skeleton XML export may write (with `--fps`).
pub const MAX_TIMESTEPS: u64 = 10_000_000;

/// Most worker threads (`run --threads`).
pub const MAX_THREADS: usize = 256;

//! Exact anti-aliased discs, rings and round-capped segments written straight into a pixmap,
//! for PNG export: each pixel's coverage comes from its centre's signed distance to the shape's
//! edge (a one-pixel ramp), blended source-over in premultiplied RGBA. Agents and force arrows
//! are thousands of these per frame; a general path rasteriser (edge lists, 4× supersampled
//! scanlines) costs many times more for the same picture.

use glam::Vec2;
use tiny_skia::Pixmap;

use super::list::Color;

/// The pixels of a pixmap, for blending coverage into.
struct Target<'a> {
    data: &'a mut [u8],
    width: usize,
    height: usize,
}

impl<'a> Target<'a> {
    fn new(pixmap: &'a mut Pixmap) -> Self {
        let (width, height) = (pixmap.width() as usize, pixmap.height() as usize);
        Target {
            data: pixmap.data_mut(),
            width,
            height,
        }
    }

    /// Calls `row` with the centre of the first pixel and the bytes of the run of pixels whose
    /// centres lie between the heights `rows` and, on the row at height `y`, in the x interval
    /// `span(y)` (pixel coordinates), for each row that has such pixels.
    fn each_row(&mut self, rows: (f32, f32), span: impl Fn(f32) -> (f32, f32), mut row: impl FnMut(Vec2, &mut [u8])) {
        let Some((y0, y1)) = pixel_range(rows, self.height) else {
            return;
        };
        for y in y0..y1 {
            let cy = y as f32 + 0.5;
            let Some((x0, x1)) = pixel_range(span(cy), self.width) else {
                continue;
            };
            row(
                Vec2::new(x0 as f32 + 0.5, cy),
                &mut self.data[(y * self.width + x0) * 4..(y * self.width + x1) * 4],
            );
        }
    }

    /// Calls `visit` with the centre and the bytes of each pixel [`Target::each_row`] visits.
    fn visit(&mut self, rows: (f32, f32), span: impl Fn(f32) -> (f32, f32), mut visit: impl FnMut(Vec2, &mut [u8])) {
        self.each_row(rows, span, |first, pixels| {
            for (i, pixel) in pixels.chunks_exact_mut(4).enumerate() {
                visit(Vec2::new(first.x + i as f32, first.y), pixel);
            }
        });
    }

    /// Blends `color` into the pixels [`Target::visit`] visits, with coverage `cover(p)` for the
    /// pixel centred at `p`.
    fn blend(&mut self, rows: (f32, f32), span: impl Fn(f32) -> (f32, f32), cover: impl Fn(Vec2) -> f32, color: Color) {
        let source = premultiplied(color);
        self.visit(rows, span, |p, pixel| source_over(pixel, source, cover(p)));
    }
}

/// `color` premultiplied, in 0..=255.
fn premultiplied(color: Color) -> [u32; 4] {
    let a = u32::from(color.0[3]);
    let [r, g, b] = [0, 1, 2].map(|i| (u32::from(color.0[i]) * a + 127) / 255);
    [r, g, b, a]
}

/// Blends the premultiplied `source` over `pixel` at `coverage`.
fn source_over(pixel: &mut [u8], source: [u32; 4], coverage: f32) {
    if coverage <= 0.0 {
        return;
    }
    // Source over, in integers scaled by 255²: source × coverage + destination × (1 − source
    // alpha × coverage).
    let c = (coverage * 255.0 + 0.5) as u32;
    if c == 255 && source[3] == 255 {
        // Wholly covered by an opaque colour: the colour itself, as `blend` gives it.
        let [r, g, b, a] = source.map(|channel| channel as u8);
        pixel.copy_from_slice(&[r, g, b, a]);
    } else {
        blend(pixel, source, c);
    }
}

/// Blends the premultiplied `source` over `pixel` at coverage `c` in 0..=255.
fn blend(pixel: &mut [u8], source: [u32; 4], c: u32) {
    let keep = 255 * 255 - source[3] * c;
    let mix = |s: u32, d: u8| ((s * c * 255 + u32::from(d) * keep + 32512) / 65025) as u8;
    // Premultiplied: no colour channel above the alpha, whatever the rounding.
    let new_alpha = mix(source[3], pixel[3]);
    for (channel, s) in pixel[..3].iter_mut().zip(source) {
        *channel = mix(s, *channel).min(new_alpha);
    }
    pixel[3] = new_alpha;
}

/// The pixel indices whose centres lie in `[lo, hi]` (pixel coordinates), clipped to
/// `0..limit`; `None` when there are none. (Rounded by integer conversions: `f32::floor` and
/// `ceil` are calls into the C library on the baseline x86-64 target, twice a row.)
fn pixel_range((lo, hi): (f32, f32), limit: usize) -> Option<(usize, usize)> {
    let (lo, hi) = (lo - 0.5, hi - 0.5);
    if !(hi >= 0.0 && lo < limit as f32) {
        return None;
    }
    // Truncation is the floor of a number not below 0; the conversions saturate.
    let first = if lo <= 0.0 {
        0
    } else {
        let whole = lo as usize;
        whole + usize::from((whole as f32) < lo)
    };
    let end = (hi as usize).saturating_add(1).min(limit);
    (first < end).then_some((first, end))
}

/// Coverage of a pixel whose centre is `distance` pixels outside the edge (negative: inside),
/// for a shape at most `thickness` pixels across (thinner than a pixel covers less).
fn coverage(distance: f32, thickness: f32) -> f32 {
    (0.5 - distance).clamp(0.0, 1.0).min(thickness)
}

/// The x interval of the row at height `y` within `reach` of a circle of `radius` around `c`.
fn circle_span(c: Vec2, reach: f32, y: f32) -> (f32, f32) {
    let half = (reach * reach - (y - c.y) * (y - c.y)).max(0.0).sqrt();
    (c.x - half, c.x + half)
}

/// Fills the disc of `radius` pixels around `center`.
pub fn fill_disc(pixmap: &mut Pixmap, center: Vec2, radius: f32, color: Color) {
    let reach = radius + 0.5;
    Target::new(pixmap).blend(
        (center.y - reach, center.y + reach),
        |y| circle_span(center, reach, y),
        |p| coverage(p.distance(center) - radius, 2.0 * radius),
        color,
    );
}

/// Fills the disc of `radius` pixels around `center` with the opaque `fill` over a disc `width`
/// pixels wider of `outline`, as egui draws an opaque circle with its outline; the same pixels as
/// drawing the two discs one after the other, in one pass.
pub fn fill_outlined_disc(pixmap: &mut Pixmap, center: Vec2, radius: f32, width: f32, fill: Color, outline: Color) {
    let outer = radius + width;
    let reach = outer + 0.5;
    let (fill, outline) = (premultiplied(fill), premultiplied(outline));
    Target::new(pixmap).visit(
        (center.y - reach, center.y + reach),
        |y| circle_span(center, reach, y),
        |p, pixel| {
            let distance = p.distance(center);
            let inner = coverage(distance - radius, 2.0 * radius);
            if inner < 1.0 {
                source_over(pixel, outline, coverage(distance - outer, 2.0 * outer));
            }
            source_over(pixel, fill, inner);
        },
    );
}

/// Strokes the circle of `radius` pixels around `center` with a line `width` pixels wide.
pub fn stroke_circle(pixmap: &mut Pixmap, center: Vec2, radius: f32, width: f32, color: Color) {
    let half = width * 0.5;
    let reach = radius + half + 0.5;
    Target::new(pixmap).blend(
        (center.y - reach, center.y + reach),
        |y| circle_span(center, reach, y),
        |p| coverage((p.distance(center) - radius).abs() - half, width),
        color,
    );
}

/// Strokes the segment from `a` to `b` with a line `width` pixels wide and round caps.
///
/// Along a row, a pixel centre's position along the segment and its signed distance across it
/// change by constant steps, so the distance to the segment is found by two additions a pixel
/// (and a square root only beyond the ends, in the caps).
pub fn stroke_segment(pixmap: &mut Pixmap, a: Vec2, b: Vec2, width: f32, color: Color) {
    let half = width * 0.5;
    let reach = half + 0.5;
    let ab = b - a;
    let length = ab.length();
    let (along, normal) = match ab.try_normalize() {
        Some(along) => (along, along.perp()),
        None => (Vec2::X, Vec2::Y),
    };
    let (lo, hi) = (a.min(b) - reach, a.max(b) + reach);
    // Pixels near the segment in a row lie where the row crosses the band of `reach` about
    // the segment's line; a horizontal segment's band is the whole box.
    let span = |y: f32| {
        if normal.x.abs() < 1e-6 {
            return (lo.x, hi.x);
        }
        // x where (p - a)·normal = ±reach on this row.
        let centre = a.x - (y - a.y) * normal.y / normal.x;
        let spread = reach / normal.x.abs();
        ((centre - spread).max(lo.x), (centre + spread).min(hi.x))
    };
    let source = premultiplied(color);
    // A pixel this far from an end or farther is not covered (to within rounding, a coverage
    // below half a level, which leaves the pixel as it is): no square root for it.
    let reach_squared = reach * reach;
    Target::new(pixmap).each_row((lo.y, hi.y), span, |first, pixels| {
        let offset = first - a;
        let (mut u, mut v) = (offset.dot(along), offset.dot(normal));
        for pixel in pixels.chunks_exact_mut(4) {
            let beyond = if u < 0.0 { u } else { (u - length).max(0.0) };
            let distance = if beyond == 0.0 {
                Some(v.abs())
            } else {
                let squared = beyond * beyond + v * v;
                (squared < reach_squared).then(|| squared.sqrt())
            };
            if let Some(distance) = distance {
                source_over(pixel, source, coverage(distance - half, width));
            }
            u += along.x;
            v += normal.x;
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use tiny_skia::{FillRule, LineCap, Paint, PathBuilder, Transform};

    const RED: Color = Color::rgb(200, 30, 40);

    fn blank() -> Pixmap {
        let mut pixmap = Pixmap::new(64, 48).unwrap();
        pixmap.fill(tiny_skia::Color::from_rgba8(250, 250, 245, 255));
        pixmap
    }

    fn paint() -> Paint<'static> {
        let mut paint = Paint::default();
        paint.set_color_rgba8(200, 30, 40, 255);
        paint.anti_alias = true;
        paint
    }

    /// Mean and largest difference of two same-sized pixmaps, per channel, in 0..255.
    fn difference(a: &Pixmap, b: &Pixmap) -> (f64, u8) {
        let pairs = a.data().iter().zip(b.data());
        let largest = pairs.clone().map(|(x, y)| x.abs_diff(*y)).max().unwrap();
        let total: f64 = pairs.map(|(x, y)| f64::from(x.abs_diff(*y))).sum();
        (total / a.data().len() as f64, largest)
    }

    #[test]
    fn an_opaque_colour_wholly_covering_a_pixel_replaces_it_as_the_blend_would() {
        for s in 0..=255u32 {
            let source = [s, 255 - s, s / 3, 255];
            for d in 0..=255u8 {
                // Any premultiplied pixel: no colour channel above its alpha.
                let under = [d / 2, d, d / 5, d];
                let (mut fast, mut blended) = (under, under);
                source_over(&mut fast, source, 1.0);
                blend(&mut blended, source, 255);
                assert_eq!(fast, blended, "source {source:?} over {under:?}");
            }
        }
    }

    #[test]
    fn a_disc_and_a_ring_match_the_path_rasteriser() {
        let mut fast = blank();
        fill_disc(&mut fast, Vec2::new(20.3, 22.7), 9.4, RED);
        stroke_circle(&mut fast, Vec2::new(45.0, 20.0), 12.0, 1.5, RED);
        let mut path = blank();
        let disc = PathBuilder::from_circle(20.3, 22.7, 9.4).unwrap();
        path.fill_path(&disc, &paint(), FillRule::Winding, Transform::identity(), None);
        let ring = PathBuilder::from_circle(45.0, 20.0, 12.0).unwrap();
        let stroke = tiny_skia::Stroke {
            width: 1.5,
            ..Default::default()
        };
        path.stroke_path(&ring, &paint(), &stroke, Transform::identity(), None);
        let (mean, largest) = difference(&fast, &path);
        assert!(mean < 0.5, "mean difference {mean}");
        assert!(largest < 60, "largest difference {largest}");
        // The disc's centre is the colour itself, a pixel outside it untouched.
        assert_eq!(fast.pixel(20, 22).unwrap().red(), 200);
        assert_eq!(fast.pixel(20, 34).unwrap().red(), 250);
    }

    #[test]
    fn pixel_ranges_are_the_centres_within_the_interval_clipped_to_the_image() {
        let by_rounding = |(lo, hi): (f32, f32), limit: usize| {
            let first = (lo - 0.5).ceil().max(0.0);
            let end = ((hi - 0.5).floor() + 1.0).min(limit as f32);
            (first < end).then_some((first as usize, end as usize))
        };
        let ends = (-40..140).map(|i| i as f32 * 0.25 - 0.013 * (i % 3) as f32);
        for lo in ends.clone() {
            for hi in ends.clone() {
                for limit in [0, 1, 7, 20] {
                    assert_eq!(
                        pixel_range((lo, hi), limit),
                        by_rounding((lo, hi), limit),
                        "{lo}..{hi} in {limit}"
                    );
                }
            }
        }
        assert_eq!(pixel_range((-1e30, 1e30), 5), Some((0, 5)));
        assert_eq!(pixel_range((f32::NAN, 3.0), 5), None);
    }

    #[test]
    fn an_outlined_disc_is_its_outlines_disc_under_its_fill_in_one_pass() {
        let outline = Color([20, 30, 60, 200]);
        for (center, radius, width) in [
            (Vec2::new(20.3, 22.7), 9.4, 1.5),
            (Vec2::new(40.5, 10.5), 2.2, 1.0),
            (Vec2::new(60.0, 40.0), 0.4, 0.7),
        ] {
            let mut two_discs = blank();
            fill_disc(&mut two_discs, center, radius + width, outline);
            fill_disc(&mut two_discs, center, radius, RED);
            let mut one_pass = blank();
            fill_outlined_disc(&mut one_pass, center, radius, width, RED, outline);
            assert!(one_pass.data() == two_discs.data(), "radius {radius}, width {width}");
        }
    }

    #[test]
    fn a_segment_matches_the_path_rasteriser_at_any_slope() {
        for (a, b) in [
            (Vec2::new(5.0, 5.0), Vec2::new(58.0, 40.0)),
            (Vec2::new(5.5, 24.5), Vec2::new(58.5, 24.5)),
            (Vec2::new(30.2, 2.0), Vec2::new(31.0, 45.0)),
        ] {
            let mut fast = blank();
            stroke_segment(&mut fast, a, b, 2.0, RED);
            let mut path = blank();
            let mut pb = PathBuilder::new();
            pb.move_to(a.x, a.y);
            pb.line_to(b.x, b.y);
            let stroke = tiny_skia::Stroke {
                width: 2.0,
                line_cap: LineCap::Round,
                ..Default::default()
            };
            path.stroke_path(&pb.finish().unwrap(), &paint(), &stroke, Transform::identity(), None);
            let (mean, largest) = difference(&fast, &path);
            assert!(mean < 0.5, "{a} → {b}: mean difference {mean}");
            assert!(largest < 70, "{a} → {b}: largest difference {largest}");
        }
    }

    #[test]
    fn translucent_colours_blend_over_what_is_there_and_shapes_clip_at_the_edges() {
        let mut pixmap = blank();
        fill_disc(&mut pixmap, Vec2::new(10.5, 10.5), 4.0, RED.with_alpha(128));
        let p = pixmap.pixel(10, 10).unwrap();
        // Half of (200, 30, 40) over (250, 250, 245).
        assert!((i32::from(p.red()) - 225).abs() <= 1, "{p:?}");
        assert!((i32::from(p.green()) - 140).abs() <= 1, "{p:?}");
        assert_eq!(p.alpha(), 255);
        // Partly or wholly off the pixmap: drawn where it is on it, no panic.
        fill_disc(&mut pixmap, Vec2::new(-3.0, 47.0), 6.0, RED);
        stroke_segment(&mut pixmap, Vec2::new(-100.0, -5.0), Vec2::new(200.0, 100.0), 3.0, RED);
        stroke_circle(&mut pixmap, Vec2::new(1e6, 1e6), 4.0, 1.0, RED);
        assert_eq!(pixmap.pixel(0, 47).unwrap().red(), 200);
    }
}

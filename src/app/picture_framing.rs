//! What the canvas's picture shows, its draw lists through a view on a pixel grid, and how the
//! picture is drawn. The lists at the bottom, which stay the same while the crowd moves (the
//! grid's lines and the scene's static layer), are kept drawn as a picture of their own, the
//! underlay; each new picture of the same view starts as a copy of it instead of drawing them
//! again (the lattice's 10,000 targets, every tick).

use std::sync::Arc;

use eframe::egui::{Pos2, Rect};
use glam::Vec2;
use tiny_skia::Pixmap;

use crate::draw::{Color, DrawList, View, draw_over, fill_pixmap};

/// What a picture shows: lists through a view over a background colour, on a pixel grid.
#[derive(Clone)]
pub struct Framing {
    /// The lists, in painting order; the first `under` of them make the underlay. A list equal
    /// to the one in the same place of the framing before, through the same view, is shared with
    /// it, so that pointers tell which lists changed.
    lists: Vec<Arc<DrawList>>,
    under: usize,
    background: Color,
    /// The canvas's view, in points.
    view: View,
    pixels_per_point: f32,
    /// The screen pixel of the picture's top-left corner, and the picture's size in pixels.
    pub pixel_origin: Vec2,
    pixel_size: [u32; 2],
}

/// The underlay of a framing: its background and its first lists, drawn.
pub struct Underlay {
    /// The framing drawn, without the lists over the underlay.
    framing: Framing,
    pixmap: Pixmap,
}

impl Framing {
    /// The framing of `lists` (the first `under` of them the underlay) over `background` through
    /// `view` at `pixels_per_point`, sharing the lists that `previous` holds the same (the same
    /// list, or an equal one) when it draws through the same view, scale and background
    /// (otherwise no picture or underlay of it can be reused, and the lists are not compared);
    /// `None` when `previous` shows exactly that.
    pub fn follow(
        previous: Option<&Framing>,
        lists: Vec<Arc<DrawList>>,
        under: usize,
        background: Color,
        view: &View,
        pixels_per_point: f32,
    ) -> Option<Framing> {
        let same_setting = previous.filter(|p| {
            p.view == *view
                && p.pixels_per_point == pixels_per_point
                && p.background == background
                && p.under == under
                && p.lists.len() == lists.len()
        });
        let kept = |i: usize, list: &Arc<DrawList>| {
            same_setting
                .and_then(|p| p.lists.get(i))
                .filter(|kept| Arc::ptr_eq(kept, list) || ***kept == **list)
                .cloned()
        };
        let mut unchanged = same_setting.is_some();
        let lists: Vec<Arc<DrawList>> = lists
            .into_iter()
            .enumerate()
            .map(|(i, list)| {
                kept(i, &list).unwrap_or_else(|| {
                    unchanged = false;
                    list
                })
            })
            .collect();
        if unchanged {
            return None;
        }
        let pixel_origin = (view.origin * pixels_per_point).round();
        let size = (view.size * pixels_per_point).round().max(Vec2::ONE);
        Some(Framing {
            under: under.min(lists.len()),
            lists,
            background,
            view: *view,
            pixels_per_point,
            pixel_origin,
            pixel_size: [size.x as u32, size.y as u32],
        })
    }

    /// True when this framing and `other` make the same picture: the same lists (shared), view,
    /// scale and background.
    pub fn same_picture(&self, other: &Framing) -> bool {
        self.same_grid(other)
            && self.lists.len() == other.lists.len()
            && self.lists.iter().zip(&other.lists).all(|(a, b)| Arc::ptr_eq(a, b))
    }

    /// True when this framing and `other` have the same underlay.
    fn same_underlay(&self, other: &Framing) -> bool {
        self.same_grid(other)
            && self.under == other.under
            && self.lists[..self.under]
                .iter()
                .zip(&other.lists[..other.under])
                .all(|(a, b)| Arc::ptr_eq(a, b))
    }

    /// True when this framing and `other` draw through the same view at the same scale over the
    /// same background.
    fn same_grid(&self, other: &Framing) -> bool {
        self.view == other.view
            && self.pixels_per_point == other.pixels_per_point
            && self.background == other.background
    }

    /// Draws the picture into `pixmap` (reused when it has the right size), from `underlay` when
    /// it is this framing's; returns the picture and the underlay it was drawn from (`None` for
    /// both when a pixmap of the picture's size cannot be made).
    pub fn render(&self, pixmap: Option<Pixmap>, underlay: Option<Underlay>) -> (Option<Pixmap>, Option<Underlay>) {
        let underlay = match underlay {
            Some(kept) if kept.framing.same_underlay(self) => Some(kept),
            old => self.draw_underlay(old.map(|u| u.pixmap)),
        };
        let Some(underlay) = underlay else {
            return (None, None);
        };
        let Some(mut pixmap) = self.blank(pixmap) else {
            return (None, Some(underlay));
        };
        pixmap.data_mut().copy_from_slice(underlay.pixmap.data());
        draw_over(
            self.lists[self.under..].iter().map(|list| &**list),
            &self.pixel_view(),
            self.pixels_per_point,
            &mut pixmap,
        );
        (Some(pixmap), Some(underlay))
    }

    /// The background and the underlay's lists drawn into `pixmap` (reused when it fits).
    fn draw_underlay(&self, pixmap: Option<Pixmap>) -> Option<Underlay> {
        let mut pixmap = self.blank(pixmap)?;
        fill_pixmap(&mut pixmap, self.background);
        draw_over(
            self.lists[..self.under].iter().map(|list| &**list),
            &self.pixel_view(),
            self.pixels_per_point,
            &mut pixmap,
        );
        let framing = Framing {
            lists: self.lists[..self.under].to_vec(),
            ..self.clone()
        };
        Some(Underlay { framing, pixmap })
    }

    /// `pixmap` when it has the picture's size, a new one otherwise.
    fn blank(&self, pixmap: Option<Pixmap>) -> Option<Pixmap> {
        let [width, height] = self.pixel_size;
        match pixmap {
            Some(p) if p.width() == width && p.height() == height => Some(p),
            _ => Pixmap::new(width, height),
        }
    }

    /// The view with the picture's top-left pixel at its origin.
    fn pixel_view(&self) -> View {
        View {
            origin: self.view.origin - self.pixel_origin / self.pixels_per_point,
            ..self.view
        }
    }

    /// The picture's rectangle on the screen (points) under `view`: where the world it shows is now.
    pub fn rect_under(&self, view: &View) -> Rect {
        let corner = |pixel: Vec2| {
            let world = self.view.to_world(pixel / self.pixels_per_point);
            let p = view.to_screen(world);
            Pos2::new(p.x, p.y)
        };
        let [width, height] = self.pixel_size;
        Rect::from_two_pos(
            corner(self.pixel_origin),
            corner(self.pixel_origin + Vec2::new(width as f32, height as f32)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::Shape;
    use crate::scene::Bounds;

    /// A row of discs, moved `shift` metres to the right.
    fn discs(shift: f32) -> DrawList {
        let shapes = (0..12).map(|i| Shape::Circle {
            center: Vec2::new(i as f32 * 1.5 - 8.0 + shift, (i % 3) as f32),
            radius: 0.5,
            fill: Some(Color::rgb(60, 110, 200)),
            stroke: None,
        });
        DrawList {
            shapes: shapes.collect(),
        }
    }

    const BACKGROUND: Color = Color::rgb(240, 235, 220);

    fn view() -> View {
        let bounds = Bounds {
            min: Vec2::new(-10.0, -4.0),
            max: Vec2::new(10.0, 6.0),
        };
        View {
            origin: Vec2::new(3.0, 5.0),
            ..View::fit(bounds, Vec2::new(160.0, 90.0))
        }
    }

    /// The framing of `under` then `over`, after `previous`.
    fn framing(previous: Option<&Framing>, under: DrawList, over: DrawList) -> Option<Framing> {
        Framing::follow(previous, vec![under.into(), over.into()], 1, BACKGROUND, &view(), 1.5)
    }

    /// The picture of `under` then `over`, drawn from nothing.
    fn fresh(under: DrawList, over: DrawList) -> Vec<u8> {
        let (pixmap, _) = framing(None, under, over).unwrap().render(None, None);
        pixmap.unwrap().data().to_vec()
    }

    #[test]
    fn a_new_picture_over_unchanged_lists_starts_from_their_kept_underlay() {
        let first = framing(None, discs(0.0), discs(0.2)).unwrap();
        let (_, underlay) = first.render(None, None);
        let mut underlay = underlay.unwrap();
        // A mark in the kept underlay shows whether the next picture was copied from it.
        underlay.pixmap.data_mut()[..4].copy_from_slice(&[1, 2, 3, 255]);

        assert!(
            framing(Some(&first), discs(0.0), discs(0.2)).is_none(),
            "nothing changed"
        );
        let moved = framing(Some(&first), discs(0.0), discs(0.7)).unwrap();
        assert!(
            Arc::ptr_eq(&moved.lists[0], &first.lists[0]),
            "the unchanged list is shared"
        );
        assert!(!moved.same_picture(&first));
        let (pixmap, underlay) = moved.render(None, Some(underlay));
        let pixels = pixmap.unwrap().data().to_vec();
        assert_eq!(pixels[..4], [1, 2, 3, 255], "copied from the kept underlay");
        assert_eq!(
            pixels[4..],
            fresh(discs(0.0), discs(0.7))[4..],
            "and the rest drawn over it"
        );

        let changed = framing(Some(&moved), discs(0.1), discs(0.7)).unwrap();
        let (pixmap, underlay) = changed.render(None, underlay);
        assert_eq!(
            pixmap.unwrap().data(),
            fresh(discs(0.1), discs(0.7)),
            "a changed underlay is drawn again"
        );
        assert!(underlay.unwrap().framing.same_underlay(&changed));
    }
}

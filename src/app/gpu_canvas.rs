//! The canvas's layers drawn from buffers on the GPU, under eframe's glow renderer, the large
//! ones kept there as pictures.
//!
//! egui copies every mesh a frame paints into its own meshes at the frame's end, uploads them to
//! the GPU and draws them again, every frame: at 10,000 walkers with their arrows that is most
//! of a frame even when the canvas did not change. Here each layer of the canvas is one mesh,
//! uploaded into buffers of its own only when the layer's draw list changes, and drawn from an
//! egui paint callback with a program that draws as egui's painter does ([`MeshProgram`]), so the
//! pixels are egui's own.
//!
//! With a software renderer (Mesa's llvmpipe, as under Xvfb or on a machine without a GPU) even
//! drawing from the GPU's buffers is slow: a crowd of 5,000 with its arrows, half a million
//! vertices, takes about 0.2 s a frame (0.37 µs a vertex), where copying the canvas takes about
//! 5 ms (10 ns a pixel). A layer of at least one vertex per [`PIXELS_PER_VERTEX`] canvas pixels
//! is therefore drawn once into a picture (a texture the size of the canvas) that every frame
//! copies: kept, it then costs half of drawing it or less. A smaller layer is drawn from its
//! buffers every frame, pixel for pixel as egui would, and without paying for the copy on top
//! of drawing it when it changes every frame. The picture is drawn into a transparent texture
//! and copied over the canvas with egui's blending of premultiplied colours: where the layer is
//! opaque the pixels are egui's own, where it is translucent or anti-aliased they may differ
//! from egui's by a level or two of 255 in rounding.
//!
//! By default a software renderer is not asked to draw a layer of thousands of shapes at all: a
//! canvas with such a layer is drawn on the CPU by the PNG export's renderer instead (see
//! `canvas_picture`), unless `CROWDLAB_CANVAS=gpu` asks for this path for every layer. That
//! picture, being opaque, is copied onto the screen here with blending off
//! ([`GpuCanvas::paint_opaque_picture`]), and a canvas without one has its background cleared
//! rather than shaded ([`GpuCanvas::clear_shape`]): under a software renderer each shaded pixel
//! costs, and these two cost next to nothing.
//!
//! The GL objects are made on the first draw and live as long as the window's GL context. Should
//! any of them fail, the canvas goes back to handing egui its meshes.

use std::sync::{Arc, Mutex, PoisonError};

use eframe::egui::epaint::{Mesh, Vertex, ViewportInPixels};
use eframe::egui::{Color32, PaintCallback, PaintCallbackInfo, Painter, Rect, Shape, TextureId};
use eframe::egui_glow::{self, CallbackFn, ShaderVersion};
use eframe::glow::{self, HasContext};

use super::gpu_programs::{CopyProgram, MeshProgram};

/// The programs, made on the first draw.
type ProgramSlot = Arc<Mutex<Built>>;

/// Where the programs stand.
#[derive(Clone, Copy, Default)]
enum Built {
    /// Not drawn yet.
    #[default]
    NotYet,
    Ready(MeshProgram, CopyProgram),
    /// A program or a layer's GL objects could not be made: the canvas paints through egui.
    Failed,
}

/// What the canvas needs from the GPU: the programs all its layers share.
#[derive(Clone, Default)]
pub struct GpuCanvas {
    programs: ProgramSlot,
}

impl std::fmt::Debug for GpuCanvas {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GpuCanvas {{ usable: {} }}", self.usable())
    }
}

impl GpuCanvas {
    /// A GPU canvas for the context `gl`, when it can run the programs: a GLSL 1.40 or ES 3.00
    /// shader interface (OpenGL 3.1, OpenGL ES 3.0 or later).
    pub fn for_context(gl: &glow::Context) -> Option<GpuCanvas> {
        ShaderVersion::get(gl)
            .is_new_shader_interface()
            .then(GpuCanvas::default)
    }

    /// True when `gl` draws on the CPU (Mesa's llvmpipe or softpipe, as under Xvfb, SwiftShader,
    /// Windows' GDI renderer), where drawing a crowd's force arrows is slow.
    pub fn renders_in_software(gl: &glow::Context) -> bool {
        // SAFETY: a query of a string the context always has, on its own thread.
        let renderer = unsafe { gl.get_parameter_string(glow::RENDERER) }.to_lowercase();
        ["llvmpipe", "softpipe", "swiftshader", "software", "gdi generic"]
            .iter()
            .any(|name| renderer.contains(name))
    }

    /// False once a program or GL object could not be made: the canvas then paints through
    /// egui's meshes.
    pub fn usable(&self) -> bool {
        !matches!(*lock(&self.programs), Built::Failed)
    }

    /// A shape that fills `rect` (clipped as the painter it is added with) with the opaque
    /// `color` by clearing it, as egui's filled rectangle would but without shading a pixel (a
    /// software renderer clears a canvas in a fraction of the time it shades one).
    pub fn clear_shape(&self, rect: Rect, color: Color32) -> Shape {
        let [red, green, blue, alpha] = color.to_normalized_gamma_f32();
        let clear = move |info: PaintCallbackInfo, egui_painter: &egui_glow::Painter| {
            let gl = egui_painter.gl().as_ref();
            let clip = info.clip_rect_in_pixels();
            // SAFETY: on the thread that owns `gl`, inside egui's paint pass, with its scissor test
            // on (set here to the callback's clip, so nothing outside it is cleared); egui sets
            // the clear colour again before it clears the next frame.
            unsafe {
                gl.scissor(clip.left_px, clip.from_bottom_px, clip.width_px, clip.height_px);
                gl.clear_color(red, green, blue, alpha);
                gl.clear(glow::COLOR_BUFFER_BIT);
            }
        };
        Shape::Callback(PaintCallback {
            rect,
            callback: Arc::new(CallbackFn::new(clear)),
        })
    }

    /// Paints egui's texture `texture`, an opaque picture, over `rect` with `painter`: a paint
    /// callback copies it texel for texel with blending off, where egui would shade and blend
    /// each pixel (a software renderer's copy of an opaque texture is a fraction of that).
    pub fn paint_opaque_picture(&self, painter: &Painter, rect: Rect, texture: TextureId) {
        let programs = Arc::clone(&self.programs);
        let copy = move |_: PaintCallbackInfo, egui_painter: &egui_glow::Painter| {
            if let Err(error) = copy_opaque(&programs, texture, egui_painter) {
                eprintln!("crowdlab: the canvas cannot copy its picture on the GPU ({error}); it goes on through egui");
            }
        };
        painter.add(Shape::Callback(PaintCallback {
            rect,
            callback: Arc::new(CallbackFn::new(copy)),
        }));
    }
}

/// The programs, made on the first call; an error (once) when they cannot be made, `None`
/// after that.
fn ready(programs: &ProgramSlot, gl: &glow::Context) -> Result<Option<(MeshProgram, CopyProgram)>, String> {
    let mut built = lock(programs);
    match *built {
        Built::Ready(mesh_program, copy_program) => Ok(Some((mesh_program, copy_program))),
        Built::Failed => Ok(None),
        Built::NotYet => match MeshProgram::new(gl).and_then(|m| Ok((m, CopyProgram::new(gl)?))) {
            Ok(ready) => {
                *built = Built::Ready(ready.0, ready.1);
                Ok(Some(ready))
            }
            Err(error) => {
                *built = Built::Failed;
                Err(error)
            }
        },
    }
}

/// Copies egui's texture `texture` onto the callback's viewport (see
/// [`GpuCanvas::paint_opaque_picture`]).
fn copy_opaque(programs: &ProgramSlot, texture: TextureId, egui_painter: &egui_glow::Painter) -> Result<(), String> {
    let gl = egui_painter.gl().as_ref();
    let (Some(picture), Some((_, copy_program))) = (egui_painter.texture(texture), ready(programs, gl)?) else {
        return Ok(());
    };
    // SAFETY: on the thread that owns `gl`, inside egui's paint pass, which has set the viewport
    // to the callback's rectangle and the scissor to its clip, keeps its vertex array bound (the
    // copy reads no vertex attribute), and restores its program and blending after the callback;
    // the texture is egui's own.
    unsafe {
        gl.disable(glow::BLEND);
        copy_picture(gl, &copy_program, picture, true);
    }
    Ok(())
}

/// One layer's mesh and picture on the GPU.
#[derive(Clone, Default)]
pub struct GpuLayer {
    state: Arc<Mutex<LayerState>>,
}

impl std::fmt::Debug for GpuLayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pictured = lock(&self.state).pictured.map(|p| p.generation);
        write!(f, "GpuLayer {{ pictures mesh {pictured:?} }}")
    }
}

/// Canvas pixels per vertex above which a layer is drawn from its buffers every frame rather
/// than kept as a picture (see the module's documentation).
const PIXELS_PER_VERTEX: usize = 20;

#[derive(Default)]
struct LayerState {
    /// Made on the first draw.
    objects: Option<LayerObjects>,
    /// The generation of the mesh in the buffers (0: none yet).
    uploaded: u64,
    /// What the picture shows.
    pictured: Option<Pictured>,
}

/// A mesh's generation drawn into the picture for this place on the screen.
#[derive(Clone, Copy, PartialEq)]
struct Pictured {
    generation: u64,
    /// The picture's rectangle on the screen in pixels: left, top, width, height.
    rect: [i32; 4],
    screen_height: i32,
    pixels_per_point: f32,
}

/// A layer's GL objects.
#[derive(Clone, Copy)]
struct LayerObjects {
    /// Reads epaint's vertices from `vertices`, indexed by an index buffer of its own.
    vertex_array: glow::VertexArray,
    vertices: glow::Buffer,
    /// Draws into `picture`.
    framebuffer: glow::Framebuffer,
    picture: glow::Texture,
    /// The picture's width and height in pixels (0 before it is first drawn).
    picture_size: [i32; 2],
}

/// Where a mesh is drawn: a rectangle of the screen.
struct Target {
    /// The rectangle's top-left corner on the screen and its size, in points.
    origin: [f32; 2],
    size: [f32; 2],
}

impl GpuLayer {
    /// Paints `mesh` (in points, clipped to the painter's rectangle) with `painter` as a paint
    /// callback that draws it from the layer's buffers, uploading it first unless they hold
    /// `generation` already, or copies the layer's picture of it (see the module's
    /// documentation). Each new mesh must come with a new generation, counting from 1.
    pub fn paint(&self, canvas: &GpuCanvas, painter: &Painter, generation: u64, mesh: Arc<Mesh>) {
        let programs = Arc::clone(&canvas.programs);
        let state = Arc::clone(&self.state);
        let draw = move |info: PaintCallbackInfo, egui_painter: &egui_glow::Painter| {
            if let Err(error) = draw(&programs, &state, generation, &mesh, &info, egui_painter) {
                eprintln!("crowdlab: the canvas cannot draw on the GPU ({error}); it goes on through egui's meshes");
            }
        };
        painter.add(Shape::Callback(PaintCallback {
            rect: painter.clip_rect(),
            callback: Arc::new(CallbackFn::new(draw)),
        }));
    }
}

/// Draws the layer's `mesh` of `generation` on the screen, from its buffers or its picture.
/// Errs when a program or the layer's GL objects could not be made (once: the canvas then paints
/// through egui's meshes).
fn draw(
    programs: &ProgramSlot,
    state: &Mutex<LayerState>,
    generation: u64,
    mesh: &Mesh,
    info: &PaintCallbackInfo,
    egui_painter: &egui_glow::Painter,
) -> Result<(), String> {
    let gl = egui_painter.gl().as_ref();
    let place = info.clip_rect_in_pixels();
    let Some(font_texture) = egui_painter.texture(mesh.texture_id) else {
        return Ok(());
    };
    if place.width_px <= 0 || place.height_px <= 0 {
        return Ok(());
    }
    let Some((mesh_program, copy_program)) = ready(programs, gl)? else {
        return Ok(());
    };
    // A failure from here on turns the GPU canvas off for good.
    let fail = |error: String| {
        *lock(programs) = Built::Failed;
        Err(error)
    };
    let mut layer = lock(state);
    let objects = match layer.objects {
        Some(objects) => objects,
        // SAFETY: see below.
        None => match unsafe { LayerObjects::new(gl, &mesh_program) } {
            Ok(objects) => *layer.objects.insert(objects),
            Err(error) => return fail(error),
        },
    };
    let Ok(indices) = i32::try_from(mesh.indices.len()) else {
        return fail(format!("{} indices are too many", mesh.indices.len()));
    };
    let pixels = (place.width_px * place.height_px) as usize;
    let ppp = info.pixels_per_point;
    let points = |pixels: i32| pixels as f32 / ppp;
    // SAFETY: the calls below run on the thread that owns `gl`, inside egui's paint pass, which
    // restores its program, buffers, blending and viewport after the callback (the framebuffer
    // and the scissor test are restored here); every object named was made by `gl`.
    unsafe {
        gl.bind_vertex_array(Some(objects.vertex_array));
        if layer.uploaded != generation {
            objects.upload(gl, mesh);
            layer.uploaded = generation;
        }
        if mesh.vertices.len() * PIXELS_PER_VERTEX < pixels {
            // Drawn on the screen, scissored to the canvas by egui.
            let [width, height] = info.screen_size_px.map(|p| p as i32);
            gl.viewport(0, 0, width, height);
            let screen = Target {
                origin: [0.0, 0.0],
                size: [points(width), points(height)],
            };
            draw_mesh(gl, &mesh_program, &screen, font_texture, indices);
        } else {
            let wanted = Pictured {
                generation,
                rect: [place.left_px, place.top_px, place.width_px, place.height_px],
                screen_height: info.screen_size_px[1] as i32,
                pixels_per_point: ppp,
            };
            if layer.pictured != Some(wanted) {
                let canvas = Target {
                    origin: [points(place.left_px), points(place.top_px)],
                    size: [points(place.width_px), points(place.height_px)],
                };
                let objects = layer.objects.as_mut().expect("made above");
                if let Err(error) = objects.picture(gl, &mesh_program, &canvas, &place, font_texture, indices) {
                    gl.bind_vertex_array(None);
                    return fail(error);
                }
                layer.pictured = Some(wanted);
            }
            gl.viewport(place.left_px, place.from_bottom_px, place.width_px, place.height_px);
            copy_picture(gl, &copy_program, objects.picture, false);
        }
        gl.bind_vertex_array(None);
    }
    Ok(())
}

/// Copies `picture` onto the viewport with `program`, texel for texel (its first row the top
/// one when `top_first`).
///
/// # Safety
/// On the thread that owns `gl`, inside egui's paint pass.
unsafe fn copy_picture(gl: &glow::Context, program: &CopyProgram, picture: glow::Texture, top_first: bool) {
    // SAFETY: as the function's.
    unsafe {
        gl.use_program(Some(program.program));
        gl.uniform_1_i32(Some(&program.picture), 0);
        gl.uniform_1_f32(Some(&program.top_first), f32::from(u8::from(top_first)));
        gl.active_texture(glow::TEXTURE0);
        gl.bind_texture(glow::TEXTURE_2D, Some(picture));
        gl.draw_arrays(glow::TRIANGLE_STRIP, 0, 4);
    }
}

/// Draws the bound vertex array's `indices` indices with `program` into `target`, with the
/// texture `font_texture`, over the current viewport.
///
/// # Safety
/// On the thread that owns `gl`, inside egui's paint pass.
unsafe fn draw_mesh(
    gl: &glow::Context,
    program: &MeshProgram,
    target: &Target,
    font_texture: glow::Texture,
    indices: i32,
) {
    // SAFETY: as the function's.
    unsafe {
        gl.use_program(Some(program.program));
        let uniform = |location, [x, y]: [f32; 2]| gl.uniform_2_f32(Some(location), x, y);
        uniform(&program.origin, target.origin);
        uniform(&program.size, target.size);
        gl.uniform_1_i32(Some(&program.sampler), 0);
        gl.active_texture(glow::TEXTURE0);
        gl.bind_texture(glow::TEXTURE_2D, Some(font_texture));
        gl.draw_elements(glow::TRIANGLES, indices, glow::UNSIGNED_INT, 0);
    }
}

impl LayerObjects {
    /// A vertex array for `program` reading epaint's vertices from a new vertex buffer, indexed
    /// by a new index buffer, and a framebuffer for the picture.
    ///
    /// # Safety
    /// On the thread that owns `gl`, inside egui's paint pass.
    unsafe fn new(gl: &glow::Context, program: &MeshProgram) -> Result<LayerObjects, String> {
        // SAFETY: as the function's.
        unsafe {
            let vertex_array = gl.create_vertex_array()?;
            let vertices = gl.create_buffer()?;
            let indices = gl.create_buffer()?;
            gl.bind_vertex_array(Some(vertex_array));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(vertices));
            gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(indices));
            let stride = size_of::<Vertex>() as i32;
            let attributes = [
                (program.position, 2, glow::FLOAT, std::mem::offset_of!(Vertex, pos)),
                (
                    program.texture_coordinates,
                    2,
                    glow::FLOAT,
                    std::mem::offset_of!(Vertex, uv),
                ),
                (
                    program.color,
                    4,
                    glow::UNSIGNED_BYTE,
                    std::mem::offset_of!(Vertex, color),
                ),
            ];
            for (location, size, kind, offset) in attributes {
                gl.vertex_attrib_pointer_f32(location, size, kind, false, stride, offset as i32);
                gl.enable_vertex_attrib_array(location);
            }
            gl.bind_vertex_array(None);
            Ok(LayerObjects {
                vertex_array,
                vertices,
                framebuffer: gl.create_framebuffer()?,
                picture: gl.create_texture()?,
                picture_size: [0, 0],
            })
        }
    }

    /// Uploads `mesh` into the buffers. The vertex array must be bound.
    ///
    /// # Safety
    /// On the thread that owns `gl`, inside egui's paint pass.
    unsafe fn upload(&self, gl: &glow::Context, mesh: &Mesh) {
        // SAFETY: as the function's.
        unsafe {
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.vertices));
            gl.buffer_data_u8_slice(
                glow::ARRAY_BUFFER,
                bytemuck::cast_slice(&mesh.vertices),
                glow::DYNAMIC_DRAW,
            );
            let index_bytes = bytemuck::cast_slice(&mesh.indices);
            gl.buffer_data_u8_slice(glow::ELEMENT_ARRAY_BUFFER, index_bytes, glow::DYNAMIC_DRAW);
        }
    }

    /// Draws the buffers' `indices` indices into the picture of `canvas`, the screen rectangle
    /// `place`, as egui's painter would draw them there. The vertex array must be bound.
    ///
    /// # Safety
    /// On the thread that owns `gl`, inside egui's paint pass.
    unsafe fn picture(
        &mut self,
        gl: &glow::Context,
        program: &MeshProgram,
        canvas: &Target,
        place: &ViewportInPixels,
        font_texture: glow::Texture,
        indices: i32,
    ) -> Result<(), String> {
        let (width, height) = (place.width_px, place.height_px);
        // SAFETY: as the function's.
        unsafe {
            let screen = gl.get_parameter_framebuffer(glow::FRAMEBUFFER_BINDING);
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(self.framebuffer));
            if self.picture_size != [width, height] {
                gl.bind_texture(glow::TEXTURE_2D, Some(self.picture));
                gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MIN_FILTER, glow::NEAREST as i32);
                gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MAG_FILTER, glow::NEAREST as i32);
                let (rgba, bytes) = (glow::RGBA8 as i32, glow::UNSIGNED_BYTE);
                let empty = glow::PixelUnpackData::Slice(None);
                gl.tex_image_2d(glow::TEXTURE_2D, 0, rgba, width, height, 0, glow::RGBA, bytes, empty);
                let (target, attachment) = (glow::FRAMEBUFFER, glow::COLOR_ATTACHMENT0);
                gl.framebuffer_texture_2d(target, attachment, glow::TEXTURE_2D, Some(self.picture), 0);
                let status = gl.check_framebuffer_status(glow::FRAMEBUFFER);
                if status != glow::FRAMEBUFFER_COMPLETE {
                    gl.bind_framebuffer(glow::FRAMEBUFFER, screen);
                    return Err(format!("the picture's framebuffer is incomplete (status {status:#x})"));
                }
                self.picture_size = [width, height];
            }
            gl.viewport(0, 0, width, height);
            gl.disable(glow::SCISSOR_TEST);
            gl.clear_color(0.0, 0.0, 0.0, 0.0);
            gl.clear(glow::COLOR_BUFFER_BIT);
            draw_mesh(gl, program, canvas, font_texture, indices);
            gl.enable(glow::SCISSOR_TEST);
            gl.bind_framebuffer(glow::FRAMEBUFFER, screen);
        }
        Ok(())
    }
}

/// The mutex's contents, also after a panic elsewhere (the GL objects stay valid).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

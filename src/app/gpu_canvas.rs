//! The canvas's kept meshes drawn from buffers on the GPU, under eframe's glow renderer.
//!
//! egui copies every mesh a frame paints into its own meshes at the frame's end and uploads them
//! to the GPU again: at 10,000 walkers with their arrows that is most of a frame, even when the
//! canvas did not change. Here each layer of the canvas is one mesh, uploaded into a vertex and
//! an index buffer of its own when the layer's draw list changes, and drawn by an egui paint
//! callback from those buffers in every frame, with a program that computes what egui's does
//! (positions in points, colours multiplied with the font texture in gamma space, the same
//! dithering), so the pixels are the same.
//!
//! The GL objects are made on the first draw and live as long as the window's GL context. Should
//! the program not build, the canvas goes back to handing egui its meshes.

use std::sync::{Arc, Mutex, PoisonError};

use eframe::egui::epaint::Mesh;
use eframe::egui::{PaintCallback, PaintCallbackInfo, Painter, Shape};
use eframe::egui_glow::{self, CallbackFn, ShaderVersion};
use eframe::glow::{self, HasContext};

/// The program, made on the first draw.
type ProgramSlot = Arc<Mutex<Built>>;

/// Where the program stands.
#[derive(Clone, Copy, Default)]
enum Built {
    /// Not drawn yet.
    #[default]
    NotYet,
    Ready(Program),
    /// The program or a layer's buffers could not be made: the canvas paints through egui.
    Failed,
}

/// What the canvas needs from the GPU: the program all its layers share.
#[derive(Clone, Default)]
pub struct GpuCanvas {
    program: ProgramSlot,
}

impl std::fmt::Debug for GpuCanvas {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GpuCanvas {{ usable: {} }}", self.usable())
    }
}

impl GpuCanvas {
    /// A GPU canvas for the context `gl`, when it can run the program: a GLSL 1.40 or ES 3.00
    /// shader interface (OpenGL 3.1, OpenGL ES 3.0 or later).
    pub fn for_context(gl: &glow::Context) -> Option<GpuCanvas> {
        ShaderVersion::get(gl)
            .is_new_shader_interface()
            .then(GpuCanvas::default)
    }

    /// False once the program failed to build: the canvas then paints through egui's meshes.
    pub fn usable(&self) -> bool {
        !matches!(*lock(&self.program), Built::Failed)
    }
}

/// One layer's buffers on the GPU and the generation of the mesh they hold.
#[derive(Clone, Default)]
pub struct GpuLayer {
    buffers: Arc<Mutex<LayerBuffers>>,
}

impl std::fmt::Debug for GpuLayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GpuLayer {{ holds mesh {} }}", lock(&self.buffers).uploaded)
    }
}

#[derive(Default)]
struct LayerBuffers {
    /// The vertex array and vertex buffer, made on the first draw (the vertex array holds the index
    /// buffer).
    objects: Option<LayerObjects>,
    /// The generation of the mesh in the buffers (0: none yet).
    uploaded: u64,
    /// How many indices the index buffer holds.
    indices: i32,
}

#[derive(Clone, Copy)]
struct LayerObjects {
    vertex_array: glow::VertexArray,
    vertices: glow::Buffer,
}

impl GpuLayer {
    /// Paints `mesh` (in points, clipped to the painter's rectangle) with `painter` as a paint
    /// callback that uploads it into this layer's buffers unless they already hold `generation`,
    /// then draws them. Each new mesh must come with a new generation, counting from 1.
    pub fn paint(&self, canvas: &GpuCanvas, painter: &Painter, generation: u64, mesh: Arc<Mesh>) {
        let program = Arc::clone(&canvas.program);
        let buffers = Arc::clone(&self.buffers);
        let draw = move |info: PaintCallbackInfo, egui_painter: &egui_glow::Painter| {
            if let Err(error) = draw(&program, &buffers, generation, &mesh, &info, egui_painter) {
                eprintln!("crowdlab: the canvas cannot draw on the GPU ({error}); it goes on through egui's meshes");
            }
        };
        painter.add(Shape::Callback(PaintCallback {
            rect: painter.clip_rect(),
            callback: Arc::new(CallbackFn::new(draw)),
        }));
    }
}

/// Draws the layer's buffers, uploading `mesh` into them first unless they hold `generation`.
/// Errs when the program or the layer's buffers could not be made (once: the canvas then paints
/// through egui's meshes).
fn draw(
    program: &ProgramSlot,
    buffers: &Mutex<LayerBuffers>,
    generation: u64,
    mesh: &Mesh,
    info: &PaintCallbackInfo,
    egui_painter: &egui_glow::Painter,
) -> Result<(), String> {
    let gl = egui_painter.gl().as_ref();
    let Some(texture) = egui_painter.texture(mesh.texture_id) else {
        return Ok(());
    };
    let mut built = lock(program);
    let program = match *built {
        Built::Ready(program) => program,
        Built::Failed => return Ok(()),
        Built::NotYet => {
            let program = Program::new(gl).inspect_err(|_| *built = Built::Failed)?;
            *built = Built::Ready(program);
            program
        }
    };
    let mut layer = lock(buffers);
    // SAFETY: the calls below run on the thread that owns `gl`, inside egui's paint pass, which
    // restores its own state after the callback; every object named was made by `gl`.
    unsafe {
        let objects = match layer.objects {
            Some(objects) => objects,
            None => {
                let objects = LayerObjects::new(gl, &program).inspect_err(|_| *built = Built::Failed)?;
                *layer.objects.insert(objects)
            }
        };
        gl.bind_vertex_array(Some(objects.vertex_array));
        if layer.uploaded != generation {
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(objects.vertices));
            let vertices = bytemuck::cast_slice(&mesh.vertices);
            gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, vertices, glow::DYNAMIC_DRAW);
            let indices = bytemuck::cast_slice(&mesh.indices);
            gl.buffer_data_u8_slice(glow::ELEMENT_ARRAY_BUFFER, indices, glow::DYNAMIC_DRAW);
            layer.uploaded = generation;
            layer.indices = i32::try_from(mesh.indices.len()).map_err(|e| e.to_string())?;
        }
        // egui set the viewport to the callback's rectangle; the mesh is in whole-screen points.
        let [width, height] = info.screen_size_px;
        gl.viewport(0, 0, width as i32, height as i32);
        gl.use_program(Some(program.program));
        let points = |pixels: u32| pixels as f32 / info.pixels_per_point;
        gl.uniform_2_f32(Some(&program.screen_size), points(width), points(height));
        gl.uniform_1_i32(Some(&program.sampler), 0);
        gl.active_texture(glow::TEXTURE0);
        gl.bind_texture(glow::TEXTURE_2D, Some(texture));
        gl.draw_elements(glow::TRIANGLES, layer.indices, glow::UNSIGNED_INT, 0);
        gl.bind_vertex_array(None);
    }
    Ok(())
}

impl LayerObjects {
    /// A vertex array reading epaint's vertices from a new vertex buffer, indexed by a new index
    /// buffer.
    unsafe fn new(gl: &glow::Context, program: &Program) -> Result<LayerObjects, String> {
        use eframe::egui::epaint::Vertex;
        // SAFETY: see `draw`.
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
            Ok(LayerObjects { vertex_array, vertices })
        }
    }
}

/// The canvas's program and where its inputs are.
#[derive(Clone, Copy)]
struct Program {
    program: glow::Program,
    screen_size: glow::UniformLocation,
    sampler: glow::UniformLocation,
    position: u32,
    texture_coordinates: u32,
    color: u32,
}

/// Positions in points to clip space; colours (sRGB bytes) and texture coordinates passed on.
const VERTEX_SHADER: &str = r"
uniform vec2 u_screen_size;
in vec2 a_pos;
in vec2 a_tc;
in vec4 a_srgba;
out vec4 v_rgba;
out vec2 v_tc;
void main() {
    gl_Position = vec4(2.0 * a_pos.x / u_screen_size.x - 1.0, 1.0 - 2.0 * a_pos.y / u_screen_size.y, 0.0, 1.0);
    v_rgba = a_srgba / 255.0;
    v_tc = a_tc;
}
";

/// The colour times the texture, in gamma space as egui blends, dithered to 8 bits by
/// interleaved gradient noise (Jimenez 2014) as eframe's painter does by default.
const FRAGMENT_SHADER: &str = r"
uniform sampler2D u_sampler;
in vec4 v_rgba;
in vec2 v_tc;
out vec4 f_color;
float gradient_noise(vec2 pixel) {
    return fract(52.9829189 * fract(0.06711056 * pixel.x + 0.00583715 * pixel.y));
}
void main() {
    vec4 color = v_rgba * texture(u_sampler, v_tc);
    color.rgb += (gradient_noise(gl_FragCoord.xy) - 0.5) * 0.95 / 255.0;
    f_color = color;
}
";

/// Floats at high precision where the GPU has it (OpenGL ES only).
const PRECISION: &str = r"
#ifdef GL_ES
#if defined(GL_FRAGMENT_PRECISION_HIGH) && GL_FRAGMENT_PRECISION_HIGH == 1
precision highp float;
#else
precision mediump float;
#endif
#endif
";

impl Program {
    /// The program built for `gl`'s shader version, or what went wrong.
    fn new(gl: &glow::Context) -> Result<Program, String> {
        let version = ShaderVersion::get(gl).version_declaration();
        // SAFETY: see `draw`.
        unsafe {
            let program = gl.create_program()?;
            let mut shaders = Vec::new();
            for (kind, source) in [
                (glow::VERTEX_SHADER, VERTEX_SHADER),
                (glow::FRAGMENT_SHADER, FRAGMENT_SHADER),
            ] {
                let shader = gl.create_shader(kind)?;
                gl.shader_source(shader, &format!("{version}{PRECISION}{source}"));
                gl.compile_shader(shader);
                if !gl.get_shader_compile_status(shader) {
                    return Err(format!("shader: {}", gl.get_shader_info_log(shader)));
                }
                gl.attach_shader(program, shader);
                shaders.push(shader);
            }
            gl.link_program(program);
            for shader in shaders {
                gl.detach_shader(program, shader);
                gl.delete_shader(shader);
            }
            if !gl.get_program_link_status(program) {
                return Err(format!("program: {}", gl.get_program_info_log(program)));
            }
            let uniform = |name| {
                gl.get_uniform_location(program, name)
                    .ok_or(format!("no uniform {name}"))
            };
            let attribute = |name| {
                gl.get_attrib_location(program, name)
                    .ok_or(format!("no attribute {name}"))
            };
            Ok(Program {
                program,
                screen_size: uniform("u_screen_size")?,
                sampler: uniform("u_sampler")?,
                position: attribute("a_pos")?,
                texture_coordinates: attribute("a_tc")?,
                color: attribute("a_srgba")?,
            })
        }
    }
}

/// The mutex's contents, also after a panic elsewhere (the GL objects stay valid).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

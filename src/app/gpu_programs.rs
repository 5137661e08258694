//! The GPU canvas's two programs: one draws a layer's mesh into the layer's picture as egui's
//! painter would draw it on the screen, the other copies the picture onto the screen.

use eframe::egui_glow::ShaderVersion;
use eframe::glow::{self, HasContext};

/// Draws epaint meshes (positions in points, sRGB colours, the font texture) into a rectangle of
/// the screen as egui's painter does: colours multiplied with the texture in gamma space (the
/// window turns egui's dithering off, see `app::run_native`, so neither dithers).
#[derive(Clone, Copy)]
pub struct MeshProgram {
    pub program: glow::Program,
    /// The rectangle's top-left corner on the screen, in points.
    pub origin: glow::UniformLocation,
    /// The rectangle's size in points.
    pub size: glow::UniformLocation,
    pub sampler: glow::UniformLocation,
    pub position: u32,
    pub texture_coordinates: u32,
    pub color: u32,
}

/// Copies a picture's pixels one to one onto the viewport, premultiplied alpha kept.
#[derive(Clone, Copy)]
pub struct CopyProgram {
    pub program: glow::Program,
    pub picture: glow::UniformLocation,
    /// 1 for a picture whose first row is its top (egui's textures), 0 for one whose first row
    /// is its bottom (drawn by OpenGL).
    pub top_first: glow::UniformLocation,
}

/// Positions in points to clip space over the rectangle; colours (sRGB bytes) and texture
/// coordinates passed on.
const MESH_VERTEX: &str = r"
uniform vec2 u_origin;
uniform vec2 u_size;
in vec2 a_pos;
in vec2 a_tc;
in vec4 a_srgba;
out vec4 v_rgba;
out vec2 v_tc;
void main() {
    vec2 at = (a_pos - u_origin) / u_size;
    gl_Position = vec4(2.0 * at.x - 1.0, 1.0 - 2.0 * at.y, 0.0, 1.0);
    v_rgba = a_srgba / 255.0;
    v_tc = a_tc;
}
";

/// The colour times the texture, in gamma space as egui blends.
const MESH_FRAGMENT: &str = r"
uniform sampler2D u_sampler;
in vec4 v_rgba;
in vec2 v_tc;
out vec4 f_color;
void main() {
    f_color = v_rgba * texture(u_sampler, v_tc);
}
";

/// The viewport as a strip of two triangles, from the vertex number alone, with the picture's
/// corners (upside down for a picture stored top row first).
const COPY_VERTEX: &str = r"
uniform float u_top_first;
out vec2 v_tc;
void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    gl_Position = vec4(2.0 * corner - 1.0, 0.0, 1.0);
    v_tc = vec2(corner.x, mix(corner.y, 1.0 - corner.y, u_top_first));
}
";

/// The picture's pixel under the fragment, as it is (the picture is the viewport's size and
/// sampled at its texels' centres, nearest).
const COPY_FRAGMENT: &str = r"
uniform sampler2D u_picture;
in vec2 v_tc;
out vec4 f_color;
void main() {
    f_color = texture(u_picture, v_tc);
}
";

/// Floats and integers at high precision where the GPU has them (OpenGL ES only).
const PRECISION: &str = r"
#ifdef GL_ES
#if defined(GL_FRAGMENT_PRECISION_HIGH) && GL_FRAGMENT_PRECISION_HIGH == 1
precision highp float;
precision highp int;
#else
precision mediump float;
precision mediump int;
#endif
#endif
";

impl MeshProgram {
    /// The program built for `gl`, or what went wrong.
    pub fn new(gl: &glow::Context) -> Result<MeshProgram, String> {
        let program = build(gl, MESH_VERTEX, MESH_FRAGMENT)?;
        Ok(MeshProgram {
            program,
            origin: uniform(gl, program, "u_origin")?,
            size: uniform(gl, program, "u_size")?,
            sampler: uniform(gl, program, "u_sampler")?,
            position: attribute(gl, program, "a_pos")?,
            texture_coordinates: attribute(gl, program, "a_tc")?,
            color: attribute(gl, program, "a_srgba")?,
        })
    }
}

impl CopyProgram {
    /// The program built for `gl`, or what went wrong.
    pub fn new(gl: &glow::Context) -> Result<CopyProgram, String> {
        let program = build(gl, COPY_VERTEX, COPY_FRAGMENT)?;
        Ok(CopyProgram {
            program,
            picture: uniform(gl, program, "u_picture")?,
            top_first: uniform(gl, program, "u_top_first")?,
        })
    }
}

/// The program of the two shaders, for `gl`'s shader version.
fn build(gl: &glow::Context, vertex: &str, fragment: &str) -> Result<glow::Program, String> {
    let version = ShaderVersion::get(gl).version_declaration();
    // SAFETY: called on the thread that owns `gl`, inside egui's paint pass; every object named
    // was made by `gl`.
    unsafe {
        let program = gl.create_program()?;
        let mut shaders = Vec::new();
        for (kind, source) in [(glow::VERTEX_SHADER, vertex), (glow::FRAGMENT_SHADER, fragment)] {
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
        Ok(program)
    }
}

fn uniform(gl: &glow::Context, program: glow::Program, name: &str) -> Result<glow::UniformLocation, String> {
    // SAFETY: see `build`.
    unsafe { gl.get_uniform_location(program, name) }.ok_or(format!("no uniform {name}"))
}

fn attribute(gl: &glow::Context, program: glow::Program, name: &str) -> Result<u32, String> {
    // SAFETY: see `build`.
    unsafe { gl.get_attrib_location(program, name) }.ok_or(format!("no attribute {name}"))
}

//! The `.crowdrec` file format: written while the simulation runs, random access to any tick.
//!
//! ```text
//! "CROWDREC" u32 version | "HEAD" u32 len u32 crc header(JSON: scene, agent table, labels, …)
//! { "CHNK" u32 len u32 crc payload(u64 first_tick, u32 frames, u32 raw_len, zstd(frames…)) }*
//! "INDX" u32 len u32 crc payload(u32 n, n × (u64 first_tick, u32 frames, u64 offset))
//! u64 index_offset "CRECEND\0"
//! ```
//! Version 3 (this one) carries the compiled agent table in the header and compact frames
//! (see [`super::codec`]), each chunk compressed with zstd; a chunk holds frames
//! `first_tick, first_tick + k, …` where k is the header's `record_every`. Versions 1 and 2
//! (no agent table) are refused with a message saying how to record the run again.
//! Every block carries a CRC-32. A file without a valid index (the writer was killed) is
//! recovered by scanning chunks up to the last complete one; the reader says so.

use std::fs::File;
use std::io::{self, Cursor, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::codec::{DecodeError, Decoder, Encoder, FrameCodec};
use super::frame::Frame;
use super::header::RecordingHeader;
use crate::atomic_file::{AtomicFile, OnInterrupt};
use crate::scene::{SCENE_VERSION, validate};

const MAGIC: &[u8; 8] = b"CROWDREC";
const TRAILER_MAGIC: &[u8; 8] = b"CRECEND\0";
const FORMAT_VERSION: u32 = 3;
/// Uncompressed bytes after which a chunk is closed.
const CHUNK_BYTES: usize = 1 << 20;
const CHUNK_MAX_FRAMES: u32 = 64;
/// zstd level of the chunks (measured: level 3 is as small as 9 on recordings, and fast).
const ZSTD_LEVEL: i32 = 3;
/// Largest block the reader accepts (guards allocations against corrupt lengths).
const MAX_BLOCK: u32 = 1 << 30;
/// Largest uncompressed chunk the reader accepts (one frame of a huge crowd fits many times).
const MAX_RAW_CHUNK: u32 = 1 << 30;

/// Why a recording could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum RecordingError {
    /// The file system failed.
    #[error("{file}: {source}")]
    Io { file: PathBuf, source: io::Error },
    /// The file is not a crowdrec, or its header is damaged.
    #[error("{file}: {message}")]
    Corrupt { file: PathBuf, message: String },
    /// A tick outside the recording was asked for.
    #[error("{file}: tick {tick} is not in the recording (ticks 0..={last})")]
    NoSuchTick { file: PathBuf, tick: u64, last: u64 },
}

/// Location of one chunk in the file.
#[derive(Clone, Copy, Debug)]
struct ChunkEntry {
    first_tick: u64,
    frames: u32,
    offset: u64,
}

/// Streams frames into a `.crowdrec` file (under a temporary name until [`RecordingWriter::finish`]).
pub struct RecordingWriter {
    file: AtomicFile,
    offset: u64,
    pending: Vec<u8>,
    pending_first_tick: u64,
    pending_frames: u32,
    codec: FrameCodec,
    dt: f32,
    index: Vec<ChunkEntry>,
}

fn io_error(file: &Path) -> impl Fn(io::Error) -> RecordingError + '_ {
    move |source| RecordingError::Io {
        file: file.to_path_buf(),
        source,
    }
}

fn write_block(out: &mut impl Write, tag: &[u8; 4], payload: &[u8]) -> io::Result<()> {
    out.write_all(tag)?;
    out.write_all(&(payload.len() as u32).to_le_bytes())?;
    out.write_all(&crc32fast::hash(payload).to_le_bytes())?;
    out.write_all(payload)
}

impl RecordingWriter {
    /// Starts a recording at `path` with its header.
    pub fn create(path: &Path, header: &RecordingHeader) -> Result<RecordingWriter, RecordingError> {
        let err = io_error(path);
        let mut file = AtomicFile::create_with(path, OnInterrupt::Keep).map_err(&err)?;
        let json = serde_json::to_vec(header).expect("header always serialises");
        file.write_all(MAGIC).map_err(&err)?;
        file.write_all(&FORMAT_VERSION.to_le_bytes()).map_err(&err)?;
        write_block(&mut file, b"HEAD", &json).map_err(&err)?;
        Ok(RecordingWriter {
            file,
            offset: (MAGIC.len() + 4 + 12 + json.len()) as u64,
            pending: Vec::with_capacity(CHUNK_BYTES),
            pending_first_tick: 0,
            pending_frames: 0,
            codec: FrameCodec::new(header.dt),
            dt: header.dt,
            index: Vec::new(),
        })
    }

    /// Appends a frame; full chunks are written out at once.
    pub fn push(&mut self, frame: &Frame) -> Result<(), RecordingError> {
        if self.pending_frames == 0 {
            self.pending.clear();
            self.codec = FrameCodec::new(self.dt);
            self.pending_first_tick = frame.tick;
        }
        self.codec.encode(frame, &mut self.pending);
        self.pending_frames += 1;
        if self.pending.len() >= CHUNK_BYTES || self.pending_frames >= CHUNK_MAX_FRAMES {
            self.flush_chunk()?;
        }
        Ok(())
    }

    fn flush_chunk(&mut self) -> Result<(), RecordingError> {
        if self.pending_frames == 0 {
            return Ok(());
        }
        let path = self.file.final_path().to_path_buf();
        let compressed = zstd::bulk::compress(&self.pending, ZSTD_LEVEL).map_err(io_error(&path))?;
        let mut payload = Vec::with_capacity(16 + compressed.len());
        let mut e = Encoder(&mut payload);
        e.u64(self.pending_first_tick);
        e.u32(self.pending_frames);
        e.u32(self.pending.len() as u32);
        payload.extend_from_slice(&compressed);
        write_block(&mut self.file, b"CHNK", &payload).map_err(io_error(&path))?;
        self.file.flush().map_err(io_error(&path))?;
        self.index.push(ChunkEntry {
            first_tick: self.pending_first_tick,
            frames: self.pending_frames,
            offset: self.offset,
        });
        self.offset += 12 + payload.len() as u64;
        self.pending_frames = 0;
        Ok(())
    }

    /// Writes the last chunk, the index and the trailer, and renames the file into place.
    pub fn finish(mut self) -> Result<(), RecordingError> {
        self.flush_chunk()?;
        let path = self.file.final_path().to_path_buf();
        let err = io_error(&path);
        let mut payload = Vec::with_capacity(4 + self.index.len() * 20);
        let mut e = Encoder(&mut payload);
        e.varint(self.index.len() as u64);
        for c in &self.index {
            e.u64(c.first_tick);
            e.u32(c.frames);
            e.u64(c.offset);
        }
        write_block(&mut self.file, b"INDX", &payload).map_err(&err)?;
        self.file.write_all(&self.offset.to_le_bytes()).map_err(&err)?;
        self.file.write_all(TRAILER_MAGIC).map_err(&err)?;
        self.file.commit().map_err(&err)
    }
}

/// Where a recording's bytes come from: a file, or memory (tests, fuzzing).
trait Source: Read + Seek + Send {}
impl<T: Read + Seek + Send> Source for T {}

/// A `.crowdrec` opened for random access; frames are decoded a chunk at a time and the
/// last chunk is cached. Safe to share between threads.
pub struct RecordingReader {
    path: PathBuf,
    header: RecordingHeader,
    file: Mutex<Box<dyn Source>>,
    /// The file's length in bytes: no block may claim more than what is left of it.
    len: u64,
    index: Vec<ChunkEntry>,
    cache: Mutex<Option<(usize, Arc<Vec<Frame>>)>>,
    recovery_note: Option<String>,
}

struct BlockHeader {
    tag: [u8; 4],
    len: u32,
    crc: u32,
}

fn read_block_header(file: &mut impl Read) -> io::Result<BlockHeader> {
    let mut raw = [0u8; 12];
    file.read_exact(&mut raw)?;
    Ok(BlockHeader {
        tag: raw[0..4].try_into().expect("4 bytes"),
        len: u32::from_le_bytes(raw[4..8].try_into().expect("4 bytes")),
        crc: u32::from_le_bytes(raw[8..12].try_into().expect("4 bytes")),
    })
}

/// Reads a block's payload and checks its CRC; `None` when the block is cut short or damaged.
/// The declared length is checked against the `file_len` bytes of the file before anything is
/// allocated, so a corrupt length cannot claim more memory than the file holds.
fn read_block(file: &mut (impl Read + Seek), expected: &[u8; 4], file_len: u64) -> io::Result<Option<Vec<u8>>> {
    let Ok(h) = read_block_header(file) else {
        return Ok(None);
    };
    let left = file_len.saturating_sub(file.stream_position()?);
    if &h.tag != expected || h.len > MAX_BLOCK || u64::from(h.len) > left {
        return Ok(None);
    }
    let mut payload = vec![0u8; h.len as usize];
    if file.read_exact(&mut payload).is_err() || crc32fast::hash(&payload) != h.crc {
        return Ok(None);
    }
    Ok(Some(payload))
}

/// Checks that `entries` describe consecutive chunks as the writer lays them out: 1 to
/// [`CHUNK_MAX_FRAMES`] frames each, each chunk starting one stride after the previous one's
/// last frame, at increasing offsets below `end`, every tick within `u64`. Returns the first
/// entry that breaks the rule, with why.
fn check_chunks(entries: &[ChunkEntry], stride: u64, end: u64) -> Result<(), (usize, String)> {
    let mut next: Option<(u64, u64)> = None;
    for (i, c) in entries.iter().enumerate() {
        if c.frames == 0 || c.frames > CHUNK_MAX_FRAMES {
            return Err((
                i,
                format!("chunk {i} claims {} frames (1 to {CHUNK_MAX_FRAMES})", c.frames),
            ));
        }
        if let Some((tick, offset)) = next
            && (c.first_tick != tick || c.offset <= offset)
        {
            return Err((
                i,
                format!("chunk {i} (tick {}) does not follow chunk {}", c.first_tick, i - 1),
            ));
        }
        if c.offset >= end {
            return Err((i, format!("chunk {i} lies past the end of the chunks")));
        }
        let after = u64::from(c.frames)
            .checked_mul(stride)
            .and_then(|span| c.first_tick.checked_add(span))
            .ok_or_else(|| (i, format!("chunk {i}: tick {} overflows", c.first_tick)))?;
        next = Some((after, c.offset));
    }
    Ok(())
}

impl RecordingReader {
    /// Opens a recording, using its index or, if the file was cut short, recovering every
    /// complete chunk (see [`RecordingReader::recovery_note`]).
    pub fn open(path: &Path) -> Result<RecordingReader, RecordingError> {
        let file = File::open(path).map_err(io_error(path))?;
        RecordingReader::from_source(path, Box::new(file))
    }

    /// Opens a recording held in memory; `name` stands for the file in messages.
    pub fn from_bytes(name: &Path, bytes: Vec<u8>) -> Result<RecordingReader, RecordingError> {
        RecordingReader::from_source(name, Box::new(Cursor::new(bytes)))
    }

    fn from_source(path: &Path, mut file: Box<dyn Source>) -> Result<RecordingReader, RecordingError> {
        let err = io_error(path);
        let corrupt = |message: String| RecordingError::Corrupt {
            file: path.to_path_buf(),
            message,
        };
        let mut magic = [0u8; 12];
        file.read_exact(&mut magic)
            .map_err(|_| corrupt("too short to be a crowdrec recording".into()))?;
        if &magic[..8] != MAGIC {
            return Err(corrupt("not a crowdrec recording (wrong magic bytes)".into()));
        }
        let version = u32::from_le_bytes(magic[8..12].try_into().expect("4 bytes"));
        if version < FORMAT_VERSION {
            return Err(corrupt(format!(
                "format version {version} was written by an older crowdlab, without the agent table this build \
                 needs (it reads version {FORMAT_VERSION}); record the run again with `crowdlab run` on its scene"
            )));
        }
        if version > FORMAT_VERSION {
            return Err(corrupt(format!(
                "format version {version} is newer than this build reads ({FORMAT_VERSION}); update crowdlab"
            )));
        }
        let len = file.seek(SeekFrom::End(0)).map_err(&err)?;
        file.seek(SeekFrom::Start(12)).map_err(&err)?;
        let header_bytes = read_block(&mut file, b"HEAD", len)
            .map_err(&err)?
            .ok_or_else(|| corrupt("header block is damaged or cut short".into()))?;
        let mut header: RecordingHeader =
            serde_json::from_slice(&header_bytes).map_err(|e| corrupt(format!("header does not parse: {e}")))?;
        header.agents.reindex();
        header.agents.check().map_err(|m| corrupt(format!("header: {m}")))?;
        if header.record_every == 0 || !(header.dt.is_finite() && header.dt > 0.0) {
            return Err(corrupt(format!(
                "header: record_every {} and dt {} must both be positive",
                header.record_every, header.dt
            )));
        }
        if header.scene.version != SCENE_VERSION {
            return Err(corrupt(format!(
                "header: the embedded scene has version {} (this build reads {SCENE_VERSION})",
                header.scene.version
            )));
        }
        let problems = validate(&header.scene);
        if !problems.is_empty() {
            let list: Vec<String> = problems.iter().take(10).map(|p| p.to_string()).collect();
            return Err(corrupt(format!(
                "header: the embedded scene is not valid ({} problem(s)): {}",
                problems.len(),
                list.join("; ")
            )));
        }
        let stride = u64::from(header.record_every);
        let data_start = 12 + 12 + header_bytes.len() as u64;
        let (index, recovery_note) = match read_index(&mut file, len, stride).map_err(&err)? {
            Ok(index) => (index, None),
            Err(why) => {
                let (index, note) = scan_chunks(&mut file, data_start, len, stride).map_err(&err)?;
                (index, Some(format!("{why}; {note}")))
            }
        };
        if index.is_empty() {
            return Err(corrupt("the recording holds no complete frame".into()));
        }
        Ok(RecordingReader {
            path: path.to_path_buf(),
            header,
            file: Mutex::new(file),
            len,
            index,
            cache: Mutex::new(None),
            recovery_note,
        })
    }

    /// The header (scene, labels, states).
    pub fn header(&self) -> &RecordingHeader {
        &self.header
    }

    /// Set when the file had no valid index and was recovered by scanning: says how much was kept.
    pub fn recovery_note(&self) -> Option<&str> {
        self.recovery_note.as_deref()
    }

    /// Number of frames in the recording.
    pub fn frame_count(&self) -> u64 {
        self.index.iter().map(|c| c.frames as u64).sum()
    }

    /// Tick of the first frame.
    pub fn first_tick(&self) -> u64 {
        self.index[0].first_tick
    }

    /// Tick of the last frame.
    pub fn last_tick(&self) -> u64 {
        let last = self.index.last().expect("index is never empty");
        last.first_tick
            .saturating_add((last.frames as u64 - 1).saturating_mul(self.stride()))
    }

    /// Ticks between two recorded frames (the header's `record_every`).
    pub fn stride(&self) -> u64 {
        u64::from(self.header.record_every)
    }

    /// The frame of `tick`.
    pub fn frame_at(&self, tick: u64) -> Result<Frame, RecordingError> {
        let stride = self.stride();
        let chunk = self
            .index
            .partition_point(|c| c.first_tick.saturating_add((c.frames as u64).saturating_mul(stride)) <= tick);
        let entry = self
            .index
            .get(chunk)
            .filter(|c| c.first_tick <= tick && (tick - c.first_tick).is_multiple_of(stride))
            .ok_or(RecordingError::NoSuchTick {
                file: self.path.clone(),
                tick,
                last: self.last_tick(),
            })?;
        let frames = self.chunk(chunk)?;
        let frame = frames
            .get(((tick - entry.first_tick) / stride) as usize)
            .filter(|f| f.tick == tick)
            .ok_or_else(|| RecordingError::Corrupt {
                file: self.path.clone(),
                message: format!("chunk {chunk} does not hold tick {tick}"),
            })?;
        Ok(frame.clone())
    }

    fn chunk(&self, chunk: usize) -> Result<Arc<Vec<Frame>>, RecordingError> {
        if let Some((cached, frames)) = self.cache.lock().expect("cache lock").as_ref()
            && *cached == chunk
        {
            return Ok(frames.clone());
        }
        let corrupt = |message: String| RecordingError::Corrupt {
            file: self.path.clone(),
            message,
        };
        let payload = {
            let mut file = self.file.lock().expect("file lock");
            file.seek(SeekFrom::Start(self.index[chunk].offset))
                .map_err(io_error(&self.path))?;
            read_block(&mut *file, b"CHNK", self.len).map_err(io_error(&self.path))?
        }
        .ok_or_else(|| corrupt(format!("chunk {chunk} is damaged (CRC or length mismatch)")))?;
        let frames = Arc::new(
            decode_chunk(&payload, self.header.dt, self.index[chunk])
                .map_err(|e| corrupt(format!("chunk {chunk}: {}", e.0)))?,
        );
        *self.cache.lock().expect("cache lock") = Some((chunk, frames.clone()));
        Ok(frames)
    }
}

/// Decompresses a chunk (never past the length it declares) and decodes its frames, which must
/// be those its index `entry` announces.
fn decode_chunk(payload: &[u8], dt: f32, entry: ChunkEntry) -> Result<Vec<Frame>, DecodeError> {
    let mut d = Decoder::new(payload);
    let first_tick = d.u64()?;
    let n = d.u32()?;
    if (first_tick, n) != (entry.first_tick, entry.frames) {
        return Err(DecodeError(format!(
            "holds {n} frame(s) from tick {first_tick}, not the {} from tick {} the index says",
            entry.frames, entry.first_tick
        )));
    }
    let raw_len = d.u32()?;
    if raw_len > MAX_RAW_CHUNK {
        return Err(DecodeError(format!(
            "declares {raw_len} uncompressed bytes, above the limit"
        )));
    }
    let compressed = d.bytes(d.remaining())?;
    let mut raw = Vec::new();
    zstd::stream::read::Decoder::new(compressed)
        .and_then(|z| z.take(u64::from(raw_len) + 1).read_to_end(&mut raw))
        .map_err(|e| DecodeError(format!("does not decompress: {e}")))?;
    if raw.len() != raw_len as usize {
        return Err(DecodeError(format!(
            "decompresses to {} bytes, not the {raw_len} it declares",
            raw.len()
        )));
    }
    let mut d = Decoder::new(&raw);
    let mut codec = FrameCodec::new(dt);
    let mut frames = Vec::with_capacity(n.min(CHUNK_MAX_FRAMES) as usize);
    for _ in 0..n {
        frames.push(codec.decode(&mut d)?);
    }
    Ok(frames)
}

/// Reads the index through the trailer and checks it (see [`check_chunks`]); `Err` says why
/// it is missing or damaged.
fn read_index(file: &mut (impl Read + Seek), len: u64, stride: u64) -> io::Result<Result<Vec<ChunkEntry>, String>> {
    let no_index = |why: &str| Ok(Err(why.to_string()));
    if len < 16 {
        return no_index("the recording has no index");
    }
    file.seek(SeekFrom::End(-16))?;
    let mut trailer = [0u8; 16];
    file.read_exact(&mut trailer)?;
    if &trailer[8..] != TRAILER_MAGIC {
        return no_index("the recording was not closed properly (interrupted run?)");
    }
    let offset = u64::from_le_bytes(trailer[..8].try_into().expect("8 bytes"));
    if offset >= len {
        return no_index("the index offset lies past the end of the file");
    }
    file.seek(SeekFrom::Start(offset))?;
    let Some(payload) = read_block(file, b"INDX", len)? else {
        return no_index("the index block is damaged");
    };
    let mut d = Decoder::new(&payload);
    let parse = |d: &mut Decoder| -> Result<Vec<ChunkEntry>, DecodeError> {
        let n = d.count(20)?;
        (0..n)
            .map(|_| {
                Ok(ChunkEntry {
                    first_tick: d.u64()?,
                    frames: d.u32()?,
                    offset: d.u64()?,
                })
            })
            .collect()
    };
    let Ok(index) = parse(&mut d) else {
        return no_index("the index does not parse");
    };
    Ok(check_chunks(&index, stride, offset)
        .map(|()| index)
        .map_err(|(_, why)| format!("the index is damaged: {why}")))
}

/// Walks the chunks from `start`, keeping every complete, CRC-valid one that continues the
/// previous one (see [`check_chunks`]).
fn scan_chunks(
    file: &mut (impl Read + Seek),
    start: u64,
    len: u64,
    stride: u64,
) -> io::Result<(Vec<ChunkEntry>, String)> {
    file.seek(SeekFrom::Start(start))?;
    let mut index = Vec::new();
    let mut offset = start;
    while let Some(payload) = read_block(file, b"CHNK", len)? {
        let mut d = Decoder::new(&payload);
        let (Ok(first_tick), Ok(frames)) = (d.u64(), d.u32()) else {
            break;
        };
        index.push(ChunkEntry {
            first_tick,
            frames,
            offset,
        });
        if check_chunks(&index[index.len().saturating_sub(2)..], stride, len).is_err() {
            index.pop();
            break;
        }
        offset += 12 + payload.len() as u64;
    }
    let frames: u64 = index.iter().map(|c| c.frames as u64).sum();
    let note = format!(
        "recovered {frames} frame(s) from {} complete chunk(s) by scanning",
        index.len()
    );
    Ok((index, note))
}

-- CudaPerf catalog schema.  One file, versioned by PRAGMA user_version: the
-- harness creates a new catalog from this text and refuses a catalog whose
-- version it does not know (it never migrates silently).
PRAGMA user_version = 3;

-- A reference program (C or PyTorch) in the one problem format.
CREATE TABLE programs (
    id            INTEGER PRIMARY KEY,
    name          TEXT NOT NULL UNIQUE,          -- "c/stencil2d/5pt-copy-f32"
    lang          TEXT NOT NULL CHECK (lang IN ('c', 'torch')),
    family        TEXT NOT NULL,
    category      TEXT,
    origin        TEXT NOT NULL DEFAULT 'generated'
                  CHECK (origin IN ('generated', 'contributed', 'imported')),
    split         TEXT CHECK (split IN ('train', 'val', 'test', 'test-ood')),
    entry         TEXT NOT NULL,
    description   TEXT,
    dtype         TEXT NOT NULL,                 -- dtype of the first output
    meta          TEXT NOT NULL,                 -- canonical meta.json
    source        TEXT NOT NULL,                 -- program.c / program.py
    source_hash   TEXT NOT NULL,                 -- sha256(source)
    norm_hash     TEXT NOT NULL,                 -- sha256(normalised source), for splits
    content_hash  TEXT NOT NULL UNIQUE,          -- sha256(canonical meta, source)
    flops_small   REAL,                          -- cost model on the small config
    bytes_small   REAL,
    created_at    TEXT NOT NULL
);
CREATE INDEX programs_family ON programs(family);
CREATE INDEX programs_split ON programs(split);
CREATE INDEX programs_norm ON programs(norm_hash);

CREATE TABLE program_args (
    program_id    INTEGER NOT NULL REFERENCES programs(id) ON DELETE CASCADE,
    position      INTEGER NOT NULL,
    name          TEXT NOT NULL,
    dtype         TEXT NOT NULL,
    role          TEXT NOT NULL CHECK (role IN ('in', 'out', 'inout', 'param', 'scalar')),
    shape         TEXT,                          -- JSON array of expressions
    PRIMARY KEY (program_id, position)
);

CREATE TABLE configs (
    id            INTEGER PRIMARY KEY,
    program_id    INTEGER NOT NULL REFERENCES programs(id) ON DELETE CASCADE,
    name          TEXT NOT NULL,
    kind          TEXT NOT NULL CHECK (kind IN ('small', 'edge', 'large', 'other')),
    params        TEXT NOT NULL,                 -- JSON object, params and scalar overrides
    bytes         REAL,                          -- total bytes of all buffers
    UNIQUE (program_id, name)
);

-- A CUDA candidate: kernel.cu plus its launch plan.
CREATE TABLE kernels (
    id            INTEGER PRIMARY KEY,
    program_id    INTEGER NOT NULL REFERENCES programs(id) ON DELETE CASCADE,
    origin        TEXT NOT NULL
                  CHECK (origin IN ('reference', 'variant', 'policy', 'contributed', 'imported')),
    parent_id     INTEGER REFERENCES kernels(id),
    source        TEXT NOT NULL,
    launch        TEXT NOT NULL,                 -- launch.json
    knobs         TEXT,                          -- JSON
    defect        TEXT,                          -- planted defect, if any
    content_hash  TEXT NOT NULL UNIQUE,
    created_at    TEXT NOT NULL
);
CREATE INDEX kernels_program ON kernels(program_id);

CREATE TABLE runs (
    id            INTEGER PRIMARY KEY,
    started_at    TEXT NOT NULL,
    finished_at   TEXT,
    status        TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'finished', 'interrupted')),
    backend       TEXT NOT NULL,                 -- 'gpu' or 'cpu'
    selection     TEXT,                          -- JSON: split, kernels, configs, programs asked for
    machine       TEXT,
    gpu           TEXT,
    driver        TEXT,
    cuda_version  TEXT,
    nvrtc_version TEXT,
    git_rev       TEXT,
    options       TEXT,                          -- JSON
    seed          INTEGER NOT NULL
);

CREATE TABLE results (
    id              INTEGER PRIMARY KEY,
    run_id          INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    kernel_id       INTEGER NOT NULL REFERENCES kernels(id) ON DELETE CASCADE,
    config_id       INTEGER NOT NULL REFERENCES configs(id) ON DELETE CASCADE,
    status          TEXT NOT NULL,               -- pass, wrong_result, compile_error, runtime_error, timeout, ...
    error           TEXT,
    device          TEXT,                        -- "0: NVIDIA H200" (the GPU, or the CPU, that ran it)
    trials          INTEGER,                     -- correctness trials that ran to a verdict
    compile_ms      REAL,                        -- 0 when the compile cache answered
    kernel_ms       REAL,                        -- wall time of the whole evaluation of this kernel (all
                                                 -- its configs: compile, correctness, timing), per-candidate cost
    reference_kind  TEXT,                        -- 'cpu' (the C program), 'torch-cuda', 'torch-cpu', 'cuda-reference'
                                                 -- (golden outputs of the reference CUDA implementation)
    reference_cpu_ms REAL,                       -- the C reference's run time on one CPU core (fastest trial)
    max_abs_err     REAL,
    max_rel_err     REAL,
    first_bad_index INTEGER,
    time_median_ms  REAL,
    time_iqr_ms     REAL,
    time_min_ms     REAL,
    time_spread     REAL,                        -- relative half-width of the median's 95% interval
    samples         INTEGER,
    samples_dropped INTEGER,                     -- samples discarded (SM clock throttled)
    cupti_ms        REAL,                        -- median kernel time from CUPTI activity records
    baseline_ms     REAL,
    baseline_kind   TEXT,                        -- 'reference-cuda' or 'torch-eager'
    speedup         REAL,
    flagged         INTEGER NOT NULL DEFAULT 0,
    structure       TEXT,                        -- JSON: static structural report
    profile         TEXT,                        -- JSON: measured profiler metrics
    log             TEXT,
    created_at      TEXT NOT NULL,
    UNIQUE (run_id, kernel_id, config_id)
);
CREATE INDEX results_kernel ON results(kernel_id);

CREATE TABLE pairs (
    id            INTEGER PRIMARY KEY,
    program_id    INTEGER NOT NULL REFERENCES programs(id) ON DELETE CASCADE,
    config_id     INTEGER REFERENCES configs(id) ON DELETE CASCADE,
    winner_id     INTEGER NOT NULL REFERENCES kernels(id) ON DELETE CASCADE,
    loser_id      INTEGER NOT NULL REFERENCES kernels(id) ON DELETE CASCADE,
    margin        REAL,
    run_id        INTEGER REFERENCES runs(id),
    created_at    TEXT NOT NULL
);

CREATE TABLE models (
    id            INTEGER PRIMARY KEY,
    name          TEXT NOT NULL UNIQUE,
    kind          TEXT NOT NULL,
    path          TEXT,
    params        TEXT,
    metrics       TEXT,
    created_at    TEXT NOT NULL
);

CREATE TABLE experiments (
    id            INTEGER PRIMARY KEY,
    name          TEXT NOT NULL,
    config        TEXT,
    model_id      INTEGER REFERENCES models(id),
    status        TEXT NOT NULL DEFAULT 'running',
    started_at    TEXT NOT NULL,
    finished_at   TEXT
);

CREATE TABLE experiment_steps (
    id            INTEGER PRIMARY KEY,
    experiment_id INTEGER NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
    step          INTEGER NOT NULL,
    program_id    INTEGER REFERENCES programs(id),
    turn          INTEGER,
    kernel_id     INTEGER REFERENCES kernels(id),
    reward        REAL,
    details       TEXT
);

-- Programs the build looked at and did not accept (degenerate, failing), so
-- a rebuild skips them without re-running them, and users can see why.
CREATE TABLE rejections (
    content_hash  TEXT PRIMARY KEY,
    name          TEXT NOT NULL,
    verdict       TEXT NOT NULL CHECK (verdict IN ('degenerate', 'failed', 'invalid')),
    reason        TEXT NOT NULL,
    created_at    TEXT NOT NULL
);

-- Build facts: seed, generator version, last build time.
CREATE TABLE catalog_info (
    key           TEXT PRIMARY KEY,
    value         TEXT NOT NULL
);

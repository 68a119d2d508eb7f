use super::*;
use std::time::{Duration, Instant};

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
}

/// A project directory and a directory beside it holding a secret.
fn dirs() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let top = tempfile::tempdir().unwrap();
    let project = top.path().join("project");
    let outside = top.path().join("outside");
    std::fs::create_dir_all(project.join("src")).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(project.join("src/a.c"), "int x;\n").unwrap();
    std::fs::write(outside.join("secret"), "TOKEN=42\n").unwrap();
    (top, project, outside)
}

#[test]
fn include_dirs_are_read_in_every_spelling() {
    let args: Vec<String> = [
        "-I",
        "a",
        "-Ib",
        "-isystem",
        "c",
        "-isystemd",
        "-iquote",
        "e",
        "-idirafter",
        "f",
        "--include-directory=g",
        "-DI=1",
        "-include",
        "h.h",
        "-O2",
        "-I",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let dirs: Vec<String> = (include_dirs(&args).iter())
        .map(|d| d.display().to_string())
        .collect();
    assert_eq!(dirs, ["a", "b", "c", "d", "e", "f", "g"]);
}

#[test]
fn a_file_under_a_root_is_read_and_one_outside_is_not() {
    let (_top, project, outside) = dirs();
    let roots = SourceRoots::new([project.join("src")]);
    assert_eq!(roots.read(&project.join("src/a.c")), Ok("int x;\n".into()));
    assert_eq!(roots.read(&outside.join("secret")), Err(Withheld::Outside));
    // `..` and symbolic links count where they lead.
    let dotted = project.join("src/../../outside/secret");
    assert_eq!(roots.read(&dotted), Err(Withheld::Outside));
    std::os::unix::fs::symlink(outside.join("secret"), project.join("src/link.c")).unwrap();
    assert_eq!(
        roots.read(&project.join("src/link.c")),
        Err(Withheld::Outside)
    );
    assert_eq!(
        roots.read(&project.join("src/missing.c")),
        Err(Withheld::Unreadable)
    );
    // Nor the checkout's credentials.
    std::fs::create_dir_all(project.join(".git")).unwrap();
    std::fs::write(
        project.join(".git/config"),
        "extraheader = AUTHORIZATION: x\n",
    )
    .unwrap();
    let whole = SourceRoots::new([project.clone()]);
    let config = project.join("src/../.git/config");
    assert_eq!(whole.read(&config), Err(Withheld::Outside));
    // A root that does not exist names nothing.
    assert_eq!(
        SourceRoots::new([project.join("nowhere")]),
        SourceRoots::default()
    );
}

#[test]
fn kernel_files_devices_fifos_and_directories_are_never_read() {
    let (_top, project, _outside) = dirs();
    let everything = SourceRoots::new([PathBuf::from("/")]);
    assert_eq!(
        everything.read(Path::new("/proc/self/environ")),
        Err(Withheld::Outside)
    );
    assert_eq!(
        everything.read(Path::new("/dev/zero")),
        Err(Withheld::Outside)
    );
    let roots = SourceRoots::new([project.clone()]);
    assert_eq!(roots.read(&project.join("src")), Err(Withheld::NotRegular));
    let fifo = project.join("src/fifo.c");
    mkfifo(&fifo);
    let t = Instant::now();
    assert_eq!(roots.read(&fifo), Err(Withheld::NotRegular));
    assert!(t.elapsed() < Duration::from_secs(5));
    // A device linked from inside a root.
    std::os::unix::fs::symlink("/dev/zero", project.join("src/zero.c")).unwrap();
    assert_eq!(
        roots.read(&project.join("src/zero.c")),
        Err(Withheld::Outside)
    );
}

#[test]
fn a_file_past_the_size_bound_is_not_read() {
    let (_top, project, _outside) = dirs();
    let big = project.join("big.c");
    // Sparse: no 16 MiB written.
    let f = File::create(&big).unwrap();
    f.set_len(MAX_SOURCE_BYTES + 1).unwrap();
    let roots = SourceRoots::new([project.clone()]);
    assert_eq!(roots.read(&big), Err(Withheld::TooLarge));
    f.set_len(MAX_SOURCE_BYTES).unwrap();
    assert_eq!(
        roots.read(&big).map(|t| t.len() as u64),
        Ok(MAX_SOURCE_BYTES)
    );
}

#[test]
fn control_characters_are_hidden_byte_for_byte() {
    let text = "a\x1b[2Kb\r\nc\rd\u{9b}e\u{202e}f\tg\x7f\n";
    let hidden = hide_controls(text);
    assert_eq!(hidden, "a?[2Kb\r\nc?d??e???f\tg?\n");
    assert_eq!(hidden.len(), text.len());
    let (_top, project, _outside) = dirs();
    std::fs::write(project.join("esc.c"), text).unwrap();
    let roots = SourceRoots::new([project.clone()]);
    assert_eq!(roots.read(&project.join("esc.c")), Ok(hidden));
}

#[test]
fn an_output_directory_is_a_directory_or_absent() {
    let (_top, project, outside) = dirs();
    assert_eq!(check_output_dir("--html", &project), Ok(()));
    assert_eq!(
        check_output_dir("--html", &project.join("new/deeper")),
        Ok(())
    );
    let file = project.join("src/a.c");
    let e = check_output_dir("--html", &file).unwrap_err();
    assert!(e.contains("is not a directory"), "{e}");
    let link = project.join("out");
    std::os::unix::fs::symlink(&outside, &link).unwrap();
    let e = check_output_dir("--witness-dir", &link).unwrap_err();
    assert!(
        e.starts_with("--witness-dir ") && e.contains("symbolic link"),
        "{e}"
    );
    assert!(write_in("--html", &link, "index.html", b"x").is_err());
    assert!(!outside.join("index.html").exists());
}

#[test]
fn a_planted_symbolic_link_is_replaced_not_followed() {
    let (_top, project, outside) = dirs();
    let out = project.join("out");
    std::fs::create_dir(&out).unwrap();
    let victim = outside.join("secret");
    std::os::unix::fs::symlink(&victim, out.join("index.html")).unwrap();
    write_in("--html", &out, "index.html", b"<html>").unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "TOKEN=42\n");
    let written = out.join("index.html");
    assert!(!std::fs::symlink_metadata(&written)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read_to_string(&written).unwrap(), "<html>");
    // A new directory is created; nothing but the file is left in it.
    let fresh = project.join("a/b");
    write_in("--witness-dir", &fresh, "A1.json", b"{}").unwrap();
    let names: Vec<_> = (std::fs::read_dir(&fresh).unwrap())
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["A1.json"]);
}

#[test]
fn diagnostics_of_files_outside_the_roots_lose_their_text() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("a.c"), "int x;\n").expect("write");
    let roots = SourceRoots::new([dir.path().to_path_buf()]);
    let a = dir.path().join("a.c");
    let text = format!(
        "In file included from {a}:1:\n/etc/hostname:1:2: error: use of undeclared identifier 'SECRET'\n    1 | SECRET\n      |  ^\n{a}:2:1: error: expected expression\n    2 | int x;\n      | ^\n2 errors generated.\n",
        a = a.display()
    );
    let shown = roots.withhold_diagnostics(&text);
    assert!(!shown.contains("SECRET"), "{shown}");
    assert!(
        shown.contains("/etc/hostname:1:2: error: (withheld"),
        "{shown}"
    );
    assert!(
        shown.contains("expected expression\n    2 | int x;"),
        "{shown}"
    );
    assert!(shown.contains("In file included from") && shown.contains("2 errors generated."));
    assert_eq!(
        diagnostic_header("a.c:3:4: warning: w"),
        Some(("a.c:3:4", "a.c", "warning"))
    );
    assert_eq!(diagnostic_header("    3 | x: error: y"), None);
}

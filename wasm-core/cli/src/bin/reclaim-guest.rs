//! PID 1 of `reclaim kernel`'s guest: see `reclaim_cli::kernel_run::guest`.
#[cfg(target_os = "linux")]
fn main() {
    reclaim_cli::kernel_run::guest::init_main()
}

#[cfg(not(target_os = "linux"))]
fn main() {
    eprintln!("reclaim-guest runs only as init of a Linux guest");
    std::process::exit(2);
}

//! PID 1 of `reclaim kernel`'s guest: see `reclaim_core::kernel_run::guest`.
fn main() {
    reclaim_core::kernel_run::guest::init_main()
}

fn main() { println!("reclaim {}", reclaim_core::VERSION); }

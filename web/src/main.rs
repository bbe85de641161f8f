//! The binary Trunk builds: mounts the playground on the page.

fn main() {
    podlab_web::run();
}

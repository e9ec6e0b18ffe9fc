//! Quadrant digit notation.

// Only a header: libFuzzer defines LLVMFuzzerRunDriver. SwiftPM needs a source file to build
// a C target.

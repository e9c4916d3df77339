"""PyCUDA's ``pycuda.gl`` (OpenGL interoperability), refused by name: kiln
does not share buffers with OpenGL."""
raise ImportError("kiln does not offer OpenGL interoperability (PyCUDA's pycuda.gl); copy the data through "
                  "the host or map it with another library")

# The layout engine's tests: test_prelude walks real libstdc++ containers,
# so it links a small C++ object (tests/unit/cxx_objects.cpp) and libstdc++.
CXX ?= g++
CXX_OBJECTS = $(BUILD)/obj/tests/unit/cxx_objects.o

$(CXX_OBJECTS): tests/unit/cxx_objects.cpp tests/unit/cxx_objects.h
	@mkdir -p $(@D)
	$(CXX) -std=c++17 -Wall -Wextra -Werror -Wno-invalid-offsetof \
		$(CXXFLAGS) $(SANFLAGS) -Itests/unit -c $< -o $@

$(BUILD)/tests/test_prelude: $(BUILD)/obj/tests/unit/test_prelude.o \
		$(CXX_OBJECTS) $(UNIT_SUP_OBJ) $(UNIT_LIBS)
	@mkdir -p $(@D)
	$(CC) $(SANFLAGS) -o $@ $< $(CXX_OBJECTS) $(UNIT_SUP_OBJ) \
		$(UNIT_LIBS) $(PKG_LIBS) $(CMOCKA_LIBS) -lstdc++ -lm -lpthread

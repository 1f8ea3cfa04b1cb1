package nn_test
